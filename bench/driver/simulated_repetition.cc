#include "bench/driver/simulated_repetition.h"

#include "bench/driver/repetition_result.h"
#include "bench/driver/simulated_load.h"
#include "bench/metrics/summarize.h"
#include "bench/target/engine_target.h"

namespace infergate {

RepetitionResult run_simulated_repetition(const Workload& w, const SimulatedDeployment& deployment,
                                          const std::vector<BenchRequest>& dataset,
                                          const LoadSpec& load, const EngineConfig& engine_config,
                                          int repetition, const RunOptions& o) {
  VirtualClock clock;
  std::unique_ptr<Engine> engine = deployment.make_engine(engine_config, clock);
  nlohmann::json timeline = nlohmann::json::array();
  SimulatedLoadOptions options;
  options.driver.load = load;
  options.driver.seed = w.seed;
  options.driver.stop = o.stop;
  options.sampling = w.sampling;
  options.sample_interval_ns = int64_t(o.sample_interval_ms) * 1'000'000;
  options.on_sample = [&](int64_t now, const Engine& e) {
    TargetStats s;
    s.engine = engine_stats_record(e.stats());
    timeline.push_back({{"t_ms", double(now) * 1e-6}, {"engine", to_json(s)}});
  };
  const DriverResult run = run_simulated_load(*engine, clock, dataset, options);
  TargetStats stats;
  stats.engine = engine_stats_record(engine->stats());

  RunSummary summary = summarize_run(run.records, w.slo);
  add_engine_counters(summary, stats);
  summary.peak_memory_bytes = double(stats.engine->memory_total_bytes);
  const double span_ms = double(run.end_ns - run.start_ns) * 1e-6;
  summary.utilization_pct = span_ms > 0 ? 100 * stats.engine->execute_ms / span_ms : 0;
  summary.error_share_exceeded = summary.error_share > o.max_error_share;
  RepetitionResult r = make_repetition_result(repetition, run, summary, stats, w.record_requests);
  r.timeline = std::move(timeline);
  return r;
}

}  // namespace infergate
