// The committed baselines (`results/`, docs/gates.md): one results file per machine key and
// workload, its noise calibration beside it, and every replaced baseline kept in history with
// the provenance of its replacement.
//
//   results/<machine-key>/<workload>.json              the baseline
//   results/<machine-key>/<workload>.noise.json        `infergate calibrate` output
//   results/<machine-key>/history/<workload>/<created-at>-<commit12>.json
//   results/<machine-key>/history/<workload>/log.jsonl one line per replacement
//
// <workload> and <machine-key> are safe_file_name()s: a name never reaches outside the store.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "common/results/results_file.h"

namespace infergate {

// A missing or unusable baseline; the message names the file and what to do.
class BaselineError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct BaselineEntry {
  std::string machine_key, workload, path;
  std::string commit, created_at;  // of the run that produced it
  size_t repetitions = 0;
  bool has_noise = false;
};

class BaselineStore {
 public:
  explicit BaselineStore(std::string root) : root_(std::move(root)) {}

  std::string baseline_path(const std::string& machine_key, const std::string& workload) const;
  std::string noise_path(const std::string& machine_key, const std::string& workload) const;
  std::string history_dir(const std::string& machine_key, const std::string& workload) const;

  // Stores `result` as the baseline of its workload and machine (atomic write); the previous
  // baseline, if any, is moved into history first and the replacement logged. Refuses an
  // incomplete result or one without a workload name. Returns the baseline's path.
  std::string update(const ResultsFile& result) const;
  // The baseline for `candidate`'s workload on `candidate`'s machine. Throws BaselineError:
  // missing (names the path and the `baseline update` command) or corrupt (names the problem).
  ResultsFile load_for(const ResultsFile& candidate) const;
  ResultsFile load(const std::string& machine_key, const std::string& workload) const;
  // Every stored baseline, sorted by machine key then workload; corrupt ones are listed with
  // repetitions = 0 rather than hidden.
  std::vector<BaselineEntry> list() const;
  // The replacement log of one baseline, oldest first (JSON objects).
  std::vector<std::string> history(const std::string& machine_key,
                                   const std::string& workload) const;

 private:
  std::string root_;
};

}  // namespace infergate
