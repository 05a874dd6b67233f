// The four answers a rule can give (docs/gates.md), and the exit codes of `infergate compare`.
#pragma once

namespace infergate {

enum class Verdict {
  kPass,          // the interval rules out a change beyond the threshold in the worse direction
  kRegressed,     // worse beyond the threshold, and significant
  kImproved,      // better beyond the threshold, and significant
  kInconclusive,  // too few repetitions, a missing metric, or an interval across the threshold
};

// Stable, documented exit codes (docs/gates.md).
enum ExitCode : int {
  kExitPass = 0,
  kExitRegression = 1,
  kExitUsage = 2,  // usage or input error
  kExitInconclusive = 3,
  kExitIncomparable = 4,
  // 5 is run's "no request succeeded" (cli/run_command.h).
  kExitChangePoint = 6,  // history detect --newest: the newest commit completes a worse change
};

const char* to_string(Verdict v);

}  // namespace infergate
