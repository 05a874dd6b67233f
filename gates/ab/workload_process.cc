#include "gates/ab/workload_process.h"

#include <chrono>
#include <filesystem>
#include <stdexcept>

#include "gates/process/interrupt.h"
#include "gates/process/subprocess.h"

namespace infergate {

WorkloadRun run_workload_process(const std::string& binary, const std::string& workload_path,
                                 const std::vector<std::string>& sets, const std::string& stem,
                                 const std::string& working_dir, bool record_requests,
                                 double time_limit_s) {
  std::filesystem::create_directories(std::filesystem::path(stem).parent_path());
  ProcessSpec spec;
  spec.argv = {binary, "run", workload_path, "--repeat", "1", "--quiet", "--out", stem + ".json"};
  if (record_requests) spec.argv.push_back("--requests");
  for (const std::string& set : sets) {
    spec.argv.push_back("--set");
    spec.argv.push_back(set);
  }
  spec.working_dir = working_dir;
  spec.out = Output::kFile;
  spec.err = Output::kSameAsStdout;
  spec.log_file = stem + ".log";
  spec.time_limit_s = time_limit_s;
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = run_process(spec);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.interrupted || interrupt_signal()) {
    throw Interrupted("interrupted while running " + describe_command(spec.argv));
  }
  // A run that wrote no results is told apart by what it printed (a hang, a crash, a wrong
  // binary), not by its exit code alone.
  if (r.timed_out || (!r.ok() && r.exit_code != 5) || !std::filesystem::exists(stem + ".json")) {
    throw std::runtime_error(describe_command(spec.argv) + " " + r.describe() +
                             " and wrote no results (log: " + spec.log_file +
                             "); it printed: " + log_excerpt(spec.log_file));
  }
  return {load_results(stem + ".json"), seconds};
}

}  // namespace infergate
