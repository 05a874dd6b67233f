#include "gates/auto_repeat/auto_repeat.h"

#include <filesystem>
#include <stdexcept>

#include "common/io/json_file.h"
#include "gates/process/subprocess.h"

namespace infergate {

namespace {

bool recorded_requests(const ResultsFile& side) {
  for (const PointResult& p : side.points) {
    for (const RepetitionResult& r : p.repetitions) {
      if (!r.requests.empty()) return true;
    }
  }
  return false;
}

}  // namespace

void append_repetitions(ResultsFile& side, const std::string& binary, int repetitions,
                        const std::string& scratch_dir, const std::string& label,
                        double time_limit_s) {
  namespace fs = std::filesystem;
  fs::create_directories(scratch_dir);
  const int round = int(side.num_repetitions());
  const std::string stem = (fs::path(scratch_dir) / (label + "-" + std::to_string(round))).string();
  write_json_atomically(side.workload, stem + ".workload.json");
  ProcessSpec spec;
  spec.argv = {binary,    "run",   stem + ".workload.json", "--repeat", std::to_string(repetitions),
               "--quiet", "--out", stem + ".json"};
  if (recorded_requests(side)) spec.argv.push_back("--requests");
  spec.out = Output::kFile;
  spec.err = Output::kSameAsStdout;
  spec.log_file = stem + ".log";
  spec.time_limit_s = time_limit_s;
  const ProcessResult r = run_process(spec);
  if (!r.ok() || r.timed_out || !fs::exists(stem + ".json")) {
    throw std::runtime_error("rerunning the " + label + ": " + describe_command(spec.argv) + " " +
                             r.describe() + " and wrote no results (log: " + spec.log_file +
                             "); it printed: " + log_excerpt(spec.log_file));
  }
  append_repetitions_from(side, load_results(stem + ".json"));
}

void append_repetitions_from(ResultsFile& side, const ResultsFile& more) {
  for (PointResult& p : side.points) {
    for (const PointResult& q : more.points) {
      if (q.sweep != p.sweep) continue;
      for (RepetitionResult rep : q.repetitions) {
        rep.index = int(p.repetitions.size());
        p.repetitions.push_back(std::move(rep));
      }
    }
  }
}

}  // namespace infergate
