#include "bench/programs/comm/comm_bench_json.h"

#include "bench/results/manifest.h"
#include "common/util/fnv1a.h"
#include "common/util/time_stamp.h"

namespace infergate {

namespace {

nlohmann::json options_json(const CommBenchResult& r) {
  const CommBenchOptions& o = r.options;
  nlohmann::json ops = nlohmann::json::array();
  for (CommOp op : o.ops) ops.push_back(comm_op_name(op));
  return {
      {"backend", r.backend},     {"world_size", r.world_size}, {"dtype", comm_dtype_name(o.dtype)},
      {"min_bytes", o.min_bytes}, {"max_bytes", o.max_bytes},   {"step_factor", o.step_factor},
      {"iters", o.iters},         {"warmup", o.warmup},         {"ops", ops}};
}

nlohmann::json series_json(const CommBenchSeries& s) {
  nlohmann::json rows = nlohmann::json::array();
  for (const CommBenchRow& r : s.rows) {
    rows.push_back({{"bytes", r.bytes},
                    {"count", r.count},
                    {"time_us", r.time_us},
                    {"algbw_gbps", r.algbw_gbps},
                    {"busbw_gbps", r.busbw_gbps},
                    {"wrong", r.wrong}});
  }
  return {{"op", comm_op_name(s.op)},
          {"bus_factor", s.bus_factor},
          {"avg_busbw_gbps", s.avg_busbw_gbps()},
          {"peak_busbw_gbps", s.peak_busbw_gbps()},
          {"rows", rows}};
}

}  // namespace

nlohmann::json comm_bench_summary(const CommBenchResult& result) {
  nlohmann::json summary = {{"num_wrong", result.total_wrong()}};
  for (const CommBenchSeries& s : result.series) {
    const std::string op = comm_op_name(s.op);
    summary[op + "_avg_busbw_gbps"] = s.avg_busbw_gbps();
    summary[op + "_peak_busbw_gbps"] = s.peak_busbw_gbps();
    if (!s.rows.empty()) summary[op + "_small_time_us"] = s.rows.front().time_us;
  }
  return summary;
}

nlohmann::json comm_bench_json(const CommBenchResult& result, const std::string& command) {
  const nlohmann::json config = options_json(result);
  nlohmann::json series = nlohmann::json::array();
  for (const CommBenchSeries& s : result.series) series.push_back(series_json(s));
  const std::string hash = "fnv1a64:" + fnv1a64_hex(config.dump());
  return {{"schema", kCommBenchSchema},
          {"created_at", utc_iso8601_now()},
          {"command", command},
          {"config", config},
          {"config_hash", hash},
          {"collectives", series},
          {"summary", comm_bench_summary(result)},
          {"rank0_comm_stats", to_json(result.stats)},
          {"manifest", build_manifest(hash, 0)}};
}

}  // namespace infergate
