// `infergate run WORKLOAD`: drives a target with a workload and writes one results file.
#pragma once

namespace infergate {

int run_command(int argc, char** argv);

}  // namespace infergate
