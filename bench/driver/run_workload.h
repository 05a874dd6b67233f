// Runs a whole workload: every sweep point, every repetition, with telemetry, and writes one
// results file (atomically, also when stopped early: then marked incomplete).
#pragma once

#include <atomic>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>

#include "bench/workload/workload.h"

namespace infergate {

class Communicator;

struct RunOptions {
  std::string out_path;
  std::string trace_path;  // empty: no trace
  bool quiet = false;
  bool progress_is_tty = false;  // a redrawn progress bar; else plain lines
  std::atomic<bool>* stop = nullptr;
  std::string command_line;  // recorded for reproduction
  int sample_interval_ms = 100;
  // Where the CPU's RAPL counters are read (bench/telemetry/powercap_energy.h); tests point it
  // at a fixture.
  std::string powercap_root = "/sys/class/powercap";
  // A repetition whose share of failed requests is above this is flagged in its summary
  // (error_share_exceeded) and warned about by `infergate run --max-error-share`.
  double max_error_share = 0.01;
  // Under `mpirun -np N`, the load ranks' communicator (bench/driver/load_ranks.h): every rank
  // sends its share of each repetition's load and rank 0 alone writes the results file.
  Communicator* load_ranks = nullptr;
};

struct RunOutcome {
  nlohmann::json results;
  bool incomplete = false;
};

RunOutcome run_workload(const Workload& workload, const RunOptions& options);

}  // namespace infergate
