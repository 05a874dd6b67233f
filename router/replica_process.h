// One `infergate serve` child of the router: started with an exact argv on a loopback port the
// kernel picks (--port 0), its address read from the line it prints once its model is loaded
// ("listening on http://HOST:PORT"). The child dies with the router (PR_SET_PDEATHSIG), and
// whatever else it prints to stdout is passed to the router's stderr, prefixed with its name.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

#include "common/http/http_url.h"

namespace infergate {

class ReplicaProcess {
 public:
  // Starts `argv` and waits up to start_timeout_s for its address. Throws std::runtime_error
  // naming `name`, the command and what went wrong (could not start, exited, timed out).
  ReplicaProcess(std::string name, const std::vector<std::string>& argv, double start_timeout_s);
  ~ReplicaProcess();  // terminate()
  ReplicaProcess(const ReplicaProcess&) = delete;
  ReplicaProcess& operator=(const ReplicaProcess&) = delete;

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
