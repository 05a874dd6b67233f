// Running another program with an exact argv (no shell in between, so nothing in a path or a
// revision is ever interpreted): its own working directory and environment, its output captured,
// sent to a file or passed through, and an interrupt (interrupt.h) forwarded to it.
#pragma once

#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

// The program could not be started at all (not found, not executable).
class ProcessError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class Output {
  kCapture,       // into ProcessResult::out / err
  kInherit,       // our own stdout / stderr
  kNull,          // /dev/null
  kFile,          // appended to ProcessSpec::log_file
  kSameAsStdout,  // stderr only: wherever stdout goes
};

struct ProcessSpec {
  std::vector<std::string> argv;               // argv[0] is looked up in PATH when it has no '/'
  std::string working_dir;                     // empty: ours
  std::map<std::string, std::string> set_env;  // added or replaced
  // Git's repository-locating variables are dropped so that `git -C DIR` always means DIR.
  bool drop_git_env = true;
  Output out = Output::kCapture;
  Output err = Output::kCapture;
  std::string log_file;  // for Output::kFile (created if missing)
  // Seconds it may run (0: no limit). Past it, its group gets SIGTERM, and SIGKILL 5 s later
  // if still there: a hung program cannot hold the caller past its own budget.
  double time_limit_s = 0;
};

struct ProcessResult {
  int exit_code = -1;   // -1 when a signal ended it
  int term_signal = 0;  // the signal that ended it, or 0
  std::string out, err;
  bool interrupted = false;  // we were interrupted while it ran and passed the signal on
  bool timed_out = false;    // it ran past ProcessSpec::time_limit_s and was stopped
  double time_limit_s = 0;

  bool ok() const { return exit_code == 0; }
  // "exited with 2", "was killed by signal 9" or "ran past its time limit of 60 s and was
  // stopped".
  std::string describe() const;
};

// Runs the program to completion in a process group of its own (stdin is /dev/null). An
// interrupt recorded while it runs is sent to its whole group. Throws ProcessError when the
// program cannot be started.
ProcessResult run_process(const ProcessSpec& spec);

// The end of what a program wrote to `log_file`, at most `max_chars` (from a line start where
// one is near), control characters shown as '?', for a message about a run that wrote no
// results: "«...last lines...»", or "nothing" for an empty or missing log.
std::string log_excerpt(const std::string& log_file, size_t max_chars = 800);

// "argv[0] arg1 ...", each argument shell-quoted where it needs it: for messages and logs.
std::string describe_command(const std::vector<std::string>& argv);

}  // namespace infergate
