#include "gates/diagnose/run_measurements.h"

#include <algorithm>
#include <sstream>

namespace infergate {

namespace {

[[noreturn]] void missing(const ResultsFile& r, const std::string& path, const std::string& why) {
  throw ResultsError(r.source + ": " + path + ": " + why);
}

Latency latency(const ResultsFile& r, const nlohmann::json& summary, const std::string& path,
                const char* key) {
  const auto it = summary.find(key);
  if (it == summary.end() || !it->is_object()) {
    missing(r, path + "." + key,
            "missing: diagnose reads the run summary's latency statistics (a results file of "
            "`infergate run`, docs/results-schema.md)");
  }
  // An imported file's tool may not write every statistic (docs/metrics.md, "Other tools'
  // results"): a missing one is refused, never read as 0.
  for (const char* stat : {"p50", "p95", "mean"}) {
    if (!it->contains(stat) || !(*it)[stat].is_number()) {
      missing(r, path + "." + key + "." + stat,
              "missing (the tool that wrote the file did not give it): diagnose reads p50, p95 "
              "and mean");
    }
  }
  return {(*it)["p50"].get<double>(), (*it)["p95"].get<double>(), (*it)["mean"].get<double>()};
}

double number(const nlohmann::json& o, const char* key) {
  const auto it = o.find(key);
  return it != o.end() && it->is_number() ? it->get<double>() : 0.0;
}

void read_engine_timeline(const PointResult& p, RunMeasurements& m) {
  int samples = 0, waiting = 0;
  double kv = 0, running = 0;
  for (const RepetitionResult& rep : p.repetitions) {
    for (const TimelineSample& s : rep.timeline) {
      if (!s.target || !s.target->engine) continue;
      const EngineStatsRecord& e = *s.target->engine;
      ++samples;
      waiting += e.num_waiting > 0;
      kv = std::max(kv, e.kv_usage);
      running = std::max(running, double(e.num_running));
    }
  }
  if (samples == 0) return;
  m.kv_usage_peak = kv;
  m.running_peak = running;
  m.waiting_share = double(waiting) / samples;
}

void read_engine_totals(const PointResult& p, RunMeasurements& m) {
  double step_ms = 0, steps = 0, blocks = 0;
  for (const RepetitionResult& rep : p.repetitions) {
    if (!rep.engine || !rep.engine->engine) continue;
    const EngineStatsRecord& e = *rep.engine->engine;
    step_ms += e.schedule_ms + e.execute_ms + e.sample_ms + e.update_ms;
    steps += double(e.num_steps);
    blocks = std::max(blocks, double(e.num_kv_blocks));
  }
  if (steps > 0) m.step_ms = step_ms / steps;
  if (blocks > 0) m.num_kv_blocks = blocks;
}

void read_records(const PointResult& p, RunMeasurements& m) {
  std::vector<const std::vector<RecordedRequest>*> reps;
  for (const RepetitionResult& rep : p.repetitions) {
    if (!rep.requests.empty()) reps.push_back(&rep.requests);
  }
  m.has_records = !reps.empty();
  if (!m.has_records) return;
  m.ttft_by_prompt = ttft_by_prompt_tokens(reps);
  m.tpot_by_prefill = tpot_by_concurrent_prefill(reps);
}

// The mean of a dataset length distribution (docs/workload-schema.md), or nullopt for one it
// cannot tell (a lognormal's mean is the one asked for, before its bounds).
std::optional<double> length_mean(const nlohmann::json& length) {
  const std::string dist = length.value("dist", "fixed");
  if (dist == "fixed") return number(length, "value");
  if (dist == "uniform") return (number(length, "min") + number(length, "max")) / 2;
  if (dist == "normal" || dist == "lognormal") return number(length, "mean");
  return std::nullopt;
}

// Prompt tokens a prefix cache could serve: each prefix's first use is computed anyway, so of
// `fraction` x N requests starting with one of `num_prefixes` prefixes, all but the first use
// of each are reusable.
void read_shared_prefix(const nlohmann::json& dataset, RunMeasurements& m) {
  const std::string type = dataset.value("type", "synthetic");
  if (type == "sessions") {
    m.shared_prefix_source = "dataset.system_prompt_tokens";
    if (m.input_tokens_mean > 0) {
      m.shared_prefix_share =
          std::min(1.0, number(dataset, "system_prompt_tokens") / m.input_tokens_mean);
    }
    return;
  }
  if (type != "synthetic") {
    m.shared_prefix_source = "a " + type +
                             " dataset does not say how much of its prompts is shared, and the "
                             "results hold no token ids to count it";
    return;
  }
  const nlohmann::json sp = dataset.value("shared_prefix", nlohmann::json::object());
  const double prefixes = number(sp, "num_prefixes"), tokens = number(sp, "prefix_tokens");
  const double fraction = prefixes > 0 ? number(sp, "fraction") : 0.0;
  const std::optional<double> rest =
      length_mean(dataset.value("input_tokens", nlohmann::json::object()));
  if (!rest) {
    m.shared_prefix_source = "the dataset's input_tokens distribution has no known mean";
    return;
  }
  const double users = fraction * m.num_requests;
  const double reusable = users > prefixes ? 1 - prefixes / users : 0.0;
  m.shared_prefix_share = fraction * tokens * reusable / std::max(1.0, fraction * tokens + *rest);
  std::ostringstream s;
  s << "dataset.shared_prefix: " << prefixes << " prefix(es) of " << tokens << " tokens on "
    << 100 * fraction << "% of requests, each reused after its first use in "
    << int(100 * reusable + 0.5) << "% of them; " << *rest << " other prompt tokens on average";
  m.shared_prefix_source = s.str();
}

void read_workload(const nlohmann::json& w, RunMeasurements& m) {
  const nlohmann::json target = w.value("target", nlohmann::json::object());
  m.target_type = target.value("type", "engine");
  m.engine = target.value("engine", nlohmann::json::object());
  const nlohmann::json load = w.value("load", nlohmann::json::object());
  m.load_mode = load.value("mode", "open");
  if (m.load_mode == "open") m.load_rate = number(load, "rate");
  if (m.load_mode != "open") m.load_concurrency = number(load, "concurrency");
  m.greedy = number(w.value("sampling", nlohmann::json::object()), "temperature") == 0;
  read_shared_prefix(w.value("dataset", nlohmann::json::object()), m);
}

}  // namespace

RunMeasurements measure_point(const ResultsFile& r, size_t index) {
  if (r.points.empty()) missing(r, "$.points", "empty: the run measured nothing");
  const PointResult& p = r.points.at(index);
  const std::string path = "$.points[" + std::to_string(index) + "].summary";
  if (p.repetitions.empty())
    missing(r, "$.points[" + std::to_string(index) + "].repetitions", "empty");
  RunMeasurements m;
  m.point = sweep_point_label(p);
  m.repetitions = int(p.repetitions.size());
  m.ttft = latency(r, p.summary, path, "ttft_ms");
  m.tpot = latency(r, p.summary, path, "tpot_ms");
  m.send_lag = latency(r, p.summary, path, "send_lag_ms");
  if (number(p.summary, "num_completed") <= 0) {
    missing(r, path + ".num_completed", "0: no request completed, so there is nothing to diagnose");
  }
  m.num_requests = number(p.summary, "num_requests");
  m.request_rate = number(p.summary, "request_throughput_rps");
  m.input_tokens_mean = p.summary.value("/input_tokens/mean"_json_pointer, 0.0);
  m.output_tokens_mean = p.summary.value("/output_tokens/mean"_json_pointer, 0.0);
  m.mean_concurrency = number(p.summary, "mean_concurrency");
  m.preemptions = number(p.summary, "preemptions");
  for (const RepetitionResult& rep : p.repetitions) {
    m.harness_limited_repetitions += rep.summary.value("harness_limited", false);
  }
  read_engine_timeline(p, m);
  read_engine_totals(p, m);
  read_records(p, m);
  read_workload(r.workload, m);
  return m;
}

}  // namespace infergate
