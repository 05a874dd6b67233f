// `infergate plan`: which layout of a model on N devices serves a workload best (docs/simulator.md,
// "The planner").
#pragma once

namespace infergate {

int plan_command(int argc, char** argv);

}  // namespace infergate
