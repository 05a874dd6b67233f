// One run of a workload by an infergate executable in a fresh process, as `infergate ab` and
// `calibrate --paired` make them: `BINARY run WORKLOAD --repeat 1 [--requests] --quiet --out
// STEM.json [--set k=v ...]`, its output in STEM.log.
#pragma once

#include <string>
#include <vector>

#include "common/results/results_file.h"

namespace infergate {

struct WorkloadRun {
  ResultsFile results;
  double seconds = 0;  // wall time of the process
};

// Exit 0 and 5 (no request succeeded; the results say why) are results; any other exit throws
// std::runtime_error naming the command and the log. Throws Interrupted (gates/process/interrupt.h)
// after an interrupt. The run starts in `working_dir` (empty: ours), where the workload's own
// relative paths resolve. Without `record_requests` the run keeps no per-request records (unless
// the workload asks for them): its summary is all a paired judgement reads.
// `time_limit_s` (0: none) bounds the process (ProcessSpec::time_limit_s); a run that goes
// past it, fails or writes no results throws naming the command, its log and the end of what it
// printed.
WorkloadRun run_workload_process(const std::string& binary, const std::string& workload_path,
                                 const std::vector<std::string>& sets, const std::string& stem,
                                 const std::string& working_dir = "", bool record_requests = true,
                                 double time_limit_s = 0);

}  // namespace infergate
