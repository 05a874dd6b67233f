// `infergate bisect --good REV --bad REV --workload FILE --metric KEY`: finds the commit that
// made a metric regress with `git bisect run` (docs/bisect.md), and the hidden `bisect-step`
// that git runs for each commit it tests.
#pragma once

namespace infergate {

int bisect_command(int argc, char** argv);
// `infergate bisect-step --state FILE`: exits 0 (good), 1 (bad), 125 (skip) or 128 (stop the
// bisect) for `git bisect run`; only bisect_command starts it.
int bisect_step_command(int argc, char** argv);

}  // namespace infergate
