#include "history/history_export.h"

#include <map>
#include <sstream>

namespace infergate {

namespace {

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string number_text(double v) {
  std::ostringstream out;
  out.precision(17);
  out << v;
  return out.str();
}

}  // namespace

nlohmann::json history_to_json(const HistoryStore& store, const std::string& workload) {
  std::map<int64_t, nlohmann::json> metrics;
  for (const StoredMetric& m : store.metrics(workload)) {
    metrics[m.run_id].push_back({{"point", m.point},
                                 {"sweep", m.sweep},
                                 {"repetition", m.repetition},
                                 {"metric", m.metric},
                                 {"value", m.value}});
  }
  nlohmann::json runs = nlohmann::json::array();
  for (const StoredRun& r : store.runs(workload)) {
    runs.push_back({{"id", r.id},
                    {"workload", r.workload},
                    {"workload_hash", r.workload_hash},
                    {"machine_key", r.machine_key},
                    {"commit", r.commit},
                    {"dirty", r.dirty},
                    {"build", r.build},
                    {"created_at", r.created_at},
                    {"added_at", r.added_at},
                    {"source", r.source},
                    {"metrics", metrics.count(r.id) ? metrics[r.id] : nlohmann::json::array()}});
  }
  return {{"schema", "infergate.history/v1"}, {"runs", runs}};
}

std::string history_to_csv(const HistoryStore& store, const std::string& workload) {
  std::map<int64_t, StoredRun> runs;
  for (const StoredRun& r : store.runs(workload)) runs[r.id] = r;
  std::string out =
      "run_id,workload,workload_hash,machine_key,commit,created_at,point,sweep,repetition,metric,"
      "value\n";
  for (const StoredMetric& m : store.metrics(workload)) {
    const StoredRun& r = runs.at(m.run_id);
    out += std::to_string(m.run_id) + "," + csv_field(r.workload) + "," + r.workload_hash + "," +
           csv_field(r.machine_key) + "," + csv_field(r.commit) + "," + csv_field(r.created_at) +
           "," + std::to_string(m.point) + "," + csv_field(m.sweep) + "," +
           std::to_string(m.repetition) + "," + csv_field(m.metric) + "," + number_text(m.value) +
           "\n";
  }
  return out;
}

}  // namespace infergate
