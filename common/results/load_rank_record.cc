#include "common/results/load_rank_record.h"

namespace infergate {

nlohmann::json to_json(const LoadRankRecord& row) {
  return {{"rank", row.rank},
          {"host", row.host},
          {"requests", row.requests},
          {"clock_offset_ms", row.clock_offset_ms},
          {"clock_drift_ms", row.clock_drift_ms},
          {"clock_uncertainty_ms", row.clock_uncertainty_ms},
          {"send_lag_ms", {{"p50", row.send_lag_ms.p50}, {"max", row.send_lag_ms.max}}}};
}

nlohmann::json load_ranks_to_json(const std::vector<LoadRankRecord>& rows) {
  nlohmann::json out = nlohmann::json::array();
  for (const LoadRankRecord& row : rows) out.push_back(to_json(row));
  return out;
}

LoadRankRecord read_load_rank(const SectionReader& r) {
  const SectionReader lag = r.object("send_lag_ms");
  LoadRankRecord row;
  row.rank = r.integer("rank");
  row.host = r.text("host");
  row.requests = r.integer("requests");
  row.clock_offset_ms = r.number("clock_offset_ms");
  row.clock_drift_ms = r.number("clock_drift_ms");
  row.clock_uncertainty_ms = r.number("clock_uncertainty_ms");
  row.send_lag_ms = {lag.number("p50"), lag.number("max")};
  return row;
}

std::vector<LoadRankRecord> read_load_ranks(const SectionReader& r) {
  std::vector<LoadRankRecord> rows;
  for (const SectionReader& row : r.elements()) rows.push_back(read_load_rank(row));
  return rows;
}

}  // namespace infergate
