#include "gates/bisect/commit_measurement.h"

#include <unistd.h>

#include <chrono>
#include <filesystem>

#include "gates/bisect/content_hash.h"
#include "gates/bisect/file_lock.h"
#include "gates/process/interrupt.h"
#include "gates/process/subprocess.h"

namespace infergate {

namespace fs = std::filesystem;

std::string measurement_key(const MeasureSpec& spec) {
  std::string text = "workload " + file_content_hash(spec.workload_path) + "\n";
  for (const std::string& s : spec.sets) text += "set " + s + "\n";
  text += "repeat " + std::to_string(spec.repetitions) + "\n";
  return content_hash(text);
}

Measurement measure_round(const CommitBuild& build, const MeasureSpec& spec, int round,
                          std::ostream& progress) {
  const fs::path dir = fs::path(build.dir) / "measurements";
  const std::string stem = measurement_key(spec) + "-round" + std::to_string(round);
  Measurement m;
  m.results_path = (dir / (stem + ".json")).string();
  m.log_path = (dir / (stem + ".log")).string();
  fs::create_directories(dir);
  const FileLock lock((fs::path(build.dir) / "lock").string());
  const std::string name = build.commit.substr(0, 10);
  if (spec.reuse && fs::exists(m.results_path)) {
    m.ok = m.reused = true;
    progress << "bisect: " << name << ": reusing measurement round " << round + 1 << " ("
             << m.results_path << ")\n";
    return m;
  }
  const std::string partial =
      (dir / (stem + ".partial-" + std::to_string(getpid()) + ".json")).string();
  ProcessSpec run;
  run.argv = {build.binary,
              "run",
              spec.workload_path,
              "--repeat",
              std::to_string(spec.repetitions),
              "--requests",
              "--quiet",
              "--out",
              partial};
  for (const std::string& s : spec.sets) run.argv.insert(run.argv.end(), {"--set", s});
  run.working_dir = spec.working_dir;
  run.out = Output::kFile;
  run.err = Output::kSameAsStdout;
  run.log_file = m.log_path;
  fs::remove(m.log_path);
  progress << "bisect: " << name << ": measuring round " << round + 1 << " (" << spec.repetitions
           << " repetitions)\n";
  const auto start = std::chrono::steady_clock::now();
  const ProcessResult r = run_process(run);
  m.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (r.interrupted) {
    fs::remove(partial);
    throw Interrupted("interrupted while measuring " + build.commit);
  }
  if (!r.ok()) {
    m.error = describe_command(run.argv) + " " + r.describe() + " (log: " + m.log_path + ")";
  } else {
    try {
      if (load_results(partial).incomplete) m.error = "the run wrote incomplete results";
    } catch (const std::exception& e) {
      m.error = std::string("the run's results cannot be read: ") + e.what();
    }
  }
  if (!m.error.empty()) {
    fs::remove(partial);
    return m;
  }
  fs::rename(partial, m.results_path);
  m.ok = true;
  return m;
}

PointResult merge_rounds(const std::vector<std::string>& results_paths) {
  PointResult merged;
  for (const std::string& path : results_paths) {
    const ResultsFile results = load_results(path);
    if (results.points.size() != 1) {
      throw std::runtime_error(
          path + " has " + std::to_string(results.points.size()) +
          " sweep points and bisect judges one: drop the sweep with --set sweep=null and pick "
          "the value with --set (e.g. --set load.rate=4)");
    }
    if (merged.repetitions.empty()) merged.sweep = results.points[0].sweep;
    for (RepetitionResult rep : results.points[0].repetitions) {
      rep.index = int(merged.repetitions.size());
      merged.repetitions.push_back(std::move(rep));
    }
  }
  return merged;
}

}  // namespace infergate
