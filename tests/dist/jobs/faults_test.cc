// A rank that dies or hangs must end the job with a clear message, never hang it: real mpirun
// jobs of dist_fault_rank (tests/dist/fault_rank/fault_rank.cc).
#include <catch2/catch.hpp>
#include <regex>
#include <string>

#include "tests/dist/jobs/job.h"

namespace infergate {

using Catch::Matchers::Contains;

TEST_CASE("a hung rank makes the others name the operation, rank and deadline, within it") {
  const double timeout_s = 2;
  const test::JobResult job = test::run_mpi_job(3, std::string(INFERGATE_FAULT_RANK) + " hang 2");
  INFO(job.output);
  // The survivors' own words: which operation, which rank, which deadline, how long they waited.
  // Both survivors time out; mpirun may drop the output of the one it kills first.
  CHECK(std::regex_search(job.output, std::regex("rank [01] of 3 \\(pid [0-9]+ on [^)]+\\): "
                                                 "all_reduce of 4096 bytes did not complete "
                                                 "within the 2 s deadline")));
  CHECK_THAT(job.output, Contains("a peer rank died, hangs, or called a different operation"));
  std::smatch waited;
  REQUIRE(std::regex_search(job.output, waited, std::regex(R"(waited ([0-9.]+) s)")));
  CHECK(std::stod(waited[1]) >= timeout_s);
  // The watchdog checks every 0.1 s; the rest is room for scheduling on a busy machine.
  CHECK(std::stod(waited[1]) < timeout_s + 1.0);
  CHECK(job.exit_status == 124);        // kCommTimeoutExitCode, returned by mpirun
  CHECK(job.seconds < timeout_s + 20);  // mpirun's start-up and teardown on a loaded machine
}

TEST_CASE("a killed rank ends the job at once and the survivors say what they waited in") {
  // A deadline far beyond the test's: the job must end because mpirun saw the death, not by it.
  const test::JobResult job = test::run_mpi_job(3, std::string(INFERGATE_FAULT_RANK) + " kill 60");
  INFO(job.output);
  // mpirun names the dead rank and the signal.
  CHECK_THAT(job.output, Contains("rank 2") && Contains("signal 9"));
  // The survivors report their rank and the collective they were blocked in (mpirun may drop
  // the output of one it kills before forwarding it, so at least one).
  CHECK(std::regex_search(job.output, std::regex("infergate: rank [01] of 3 \\(pid [0-9]+\\): "
                                                 "stopped by SIGTERM after waiting [0-9]+ ms in "
                                                 "all_reduce")));
  CHECK(job.exit_status != 0);
  CHECK(job.seconds < 30);
  CHECK_THAT(job.output, !Contains("without rank"));
}

}  // namespace infergate
