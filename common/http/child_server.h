// An HTTP server run as a child process (the router's `infergate serve` replicas, the harness's
// `infergate router`): started with an exact argv, its address read from the line every
// infergate server prints once it listens ("listening on http://HOST:PORT"; give it --port 0
// and the kernel picks a free port). The child dies with its parent (PR_SET_PDEATHSIG), and
// whatever else it prints to stdout goes to the parent's stderr, prefixed with its name.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/http/http_url.h"

namespace infergate {

class ChildServer {
 public:
  // Starts `argv` and waits up to start_timeout_s for its address. Throws std::runtime_error
  // naming `name`, the command and what went wrong (could not start, exited, timed out).
  // `cpu` >= 0 pins the child (and every thread it starts) to that CPU; `env` ("NAME=VALUE")
  // adds to or replaces variables of the environment it inherits.
  ChildServer(std::string name, const std::vector<std::string>& argv, double start_timeout_s,
              int cpu = -1, const std::vector<std::string>& env = {});
  ~ChildServer();  // terminate()
  ChildServer(const ChildServer&) = delete;
  ChildServer& operator=(const ChildServer&) = delete;

  const HttpUrl& url() const { return url_; }
  pid_t pid() const { return pid_; }
  // Reaps it if it has ended: then "exited with N" or "was killed by signal N"; else "".
  std::string ended();
  // Passes on what it printed since the last call (non-blocking).
  void drain_output();
  // SIGTERM, then SIGKILL after grace_s; reaps it.
  void terminate(double grace_s = 10);

 private:
  std::string name_;
  pid_t pid_ = -1;
  int out_fd_ = -1;      // the child's stdout
  std::string pending_;  // a partial line of its output
  HttpUrl url_;
  bool reaped_ = false;
};

}  // namespace infergate
