#include "tests/dist/jobs/job.h"

#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>

namespace infergate::test {

JobResult run_command(const std::string& command) {
  const auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run: " + command);
  JobResult r;
  char buf[4096];
  size_t n = 0;
  while ((n = fread(buf, 1, sizeof(buf), pipe)) > 0) r.output.append(buf, n);
  const int status = pclose(pipe);
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (status != -1 && WIFEXITED(status)) r.exit_status = WEXITSTATUS(status);
  return r;
}

JobResult run_mpi_job(int ranks, const std::string& args) {
  return run_command(std::string(INFERGATE_MPIRUN) + " -np " + std::to_string(ranks) + " " + args);
}

}  // namespace infergate::test
