// `infergate run WORKLOAD`: drives a target with a workload and writes one results file.
// Exit: 0 done, 2 usage or input error (also a capacity search whose range did not bracket the
// capacity: the results file is still written), 5 some sweep point had no successful request
// (the results file is still written), 130 stopped early (Ctrl-C; results marked incomplete).
#pragma once

namespace infergate {

inline constexpr int kExitSearchNotBracketed = 2;
inline constexpr int kExitNoRequestSucceeded = 5;

int run_command(int argc, char** argv);

}  // namespace infergate
