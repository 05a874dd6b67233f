// `infergate baseline update RESULT | show [WORKLOAD|RESULT] | list`: the committed baselines
// under results/ (docs/gates.md).
#pragma once

namespace infergate {

int baseline_command(int argc, char** argv);

}  // namespace infergate
