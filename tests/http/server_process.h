// A real server (infergate serve, infergate_http_echo) started as a child process for a test:
// its output goes to a temporary file, and the constructor waits for the
// "listening on http://HOST:PORT" line every such server prints once bound.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace infergate::test {

class ServerProcess {
 public:
  // Throws std::runtime_error (with the server's output) when it exits or does not print its
  // URL within start_timeout_s.
  explicit ServerProcess(const std::vector<std::string>& argv, double start_timeout_s = 120);
  ~ServerProcess();  // SIGKILL if still running

  const std::string& url() const { return url_; }
  pid_t pid() const { return pid_; }
  // SIGTERM, then the exit status (128 + N when killed by signal N).
  int terminate();
  // The exit status once it exits by itself, or -1 if it is still running after timeout_s.
  int wait(double timeout_s);
  void kill_now();  // SIGKILL, waited for
  std::string output() const;

 private:
  int wait_for_exit();

  pid_t pid_ = -1;
  std::string url_;
  std::string log_path_;
};

struct CommandResult {
  int status = -1;  // the exit status (128 + N when killed by signal N)
  std::string out, err;
};
// Runs argv to completion; SIGKILL (status 137) past timeout_s.
CommandResult run_command(const std::vector<std::string>& argv, double timeout_s = 120);

// A loopback port nothing listens on (bound once to find it free, then released).
int unused_local_port();

}  // namespace infergate::test
