// `infergate compare [BASELINE] CANDIDATE`: the gate. Exit codes are stable (docs/gates.md):
// 0 pass, 1 regression, 2 usage or input error, 3 inconclusive, 4 incomparable.
#pragma once

namespace infergate {

int compare_command(int argc, char** argv);

}  // namespace infergate
