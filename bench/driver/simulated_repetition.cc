#include "bench/driver/simulated_repetition.h"

#include "bench/driver/load_driver.h"
#include "bench/metrics/ramp_summary.h"
#include "bench/metrics/session_summary.h"
#include "bench/metrics/summarize.h"
#include "bench/results/repetition_result.h"
#include "bench/targets/engine_target.h"
#include "sim/cluster/simulated_target.h"
#include "sim/cluster/virtual_load_clock.h"

namespace infergate {

namespace {

SimulatedWorkers workers_of(const Workload& w, const RouterTargetSpec& router) {
  SimulatedWorkers s;
  if (!w.target.simulated.routed) return s;
  s.routed = true;
  s.replicas = router.replicas;
  s.prefill_replicas = router.prefill_replicas;
  s.policy = parse_routing_policy(router.policy);
  s.kv_read_rate_mb_s = router.kv_read_rate_mb_s;
  return s;
}

}  // namespace

RepetitionResult run_simulated_repetition(const Workload& w, const SimulatedDeployment& deployment,
                                          const std::vector<BenchRequest>& dataset,
                                          const std::vector<BenchSession>* sessions,
                                          const LoadSpec& load, const RouterTargetSpec& router,
                                          const EngineConfig& engine_config, int repetition,
                                          const RunOptions& o, ProbeFigures* probe) {
  SimulatedCluster cluster(deployment, engine_config, workers_of(w, router));
  SimulatedTarget target(cluster, w.sampling);
  VirtualLoadClock clock(cluster, target);
  std::vector<TimelineSample> timeline;
  clock.set_sampler(int64_t(o.sample_interval_ms) * 1'000'000, [&](int64_t now) {
    TimelineSample& sample = timeline.emplace_back();
    sample.t_ms = double(now) * 1e-6;
    sample.target.emplace().engine = engine_stats_record(cluster.stats());
  });
  DriverOptions driver;
  driver.load = load;
  driver.seed = w.seed;
  driver.stop = o.stop;
  driver.sessions = sessions;
  const DriverResult run = run_load(target, clock, dataset, driver);
  const TargetStats stats = target.stats();

  RunSummary summary = summarize_run(run.records, w.slo);
  add_engine_counters(summary, stats);
  summary.peak_memory_bytes = double(stats.engine->memory_total_bytes);
  // The share of the run the workers spent in steps, over every worker.
  const double span_ms = double(run.end_ns - run.start_ns) * 1e-6 * cluster.workers();
  summary.utilization_pct = span_ms > 0 ? 100 * stats.engine->execute_ms / span_ms : 0;
  summary.error_share_exceeded = summary.error_share > o.max_error_share;
  RepetitionResult r = make_repetition_result(repetition, run, summary, stats, w.record_requests);
  r.timeline = std::move(timeline);
  if (sessions) r.sessions = session_summary(run);
  if (load.ramp) r.ramp = ramp_summary(run, load, w.slo);
  if (probe) {  // in virtual time: the probe's own span, as a real probe's wall time
    probe->summary = summary;
    add_slo_ratios(*probe, run.records, w.slo);
    probe->seconds = double(run.end_ns - run.start_ns) * 1e-9;
  }
  return r;
}

}  // namespace infergate
