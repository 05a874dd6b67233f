#include "bench/results/results_file.h"

#include "bench/results/json_file.h"
#include "bench/results/summary_mean.h"

namespace infergate {

namespace {

[[noreturn]] void fail(const std::string& source, const std::string& path,
                       const std::string& what) {
  throw ResultsError(source + ": " + path + ": " + what);
}

const nlohmann::json& member(const nlohmann::json& obj, const char* key, const std::string& source,
                             const std::string& path, nlohmann::json::value_t type) {
  const auto it = obj.find(key);
  const std::string where = path + "." + key;
  if (it == obj.end()) fail(source, where, "missing");
  const bool number_wanted = type == nlohmann::json::value_t::number_float ||
                             type == nlohmann::json::value_t::number_integer ||
                             type == nlohmann::json::value_t::number_unsigned;
  if (number_wanted ? !it->is_number() : it->type() != type) {
    fail(source, where,
         std::string("expected ") + nlohmann::json(type).type_name() + ", got " + it->type_name());
  }
  return *it;
}

RepetitionResult parse_repetition(const nlohmann::json& j, const std::string& source,
                                  const std::string& path) {
  using T = nlohmann::json::value_t;
  if (!j.is_object()) fail(source, path, "expected an object");
  RepetitionResult r;
  r.index = member(j, "repetition", source, path, T::number_integer).get<int>();
  r.summary = member(j, "summary", source, path, T::object);
  r.incomplete = j.value("incomplete", false);
  if (j.contains("engine")) r.engine = j["engine"];
  if (j.contains("timeline")) r.timeline = member(j, "timeline", source, path, T::array);
  if (j.contains("requests")) r.requests = member(j, "requests", source, path, T::array);
  if (j.contains("cupti")) r.cupti = member(j, "cupti", source, path, T::object);
  return r;
}

PointResult parse_point(const nlohmann::json& j, const std::string& source,
                        const std::string& path) {
  using T = nlohmann::json::value_t;
  if (!j.is_object()) fail(source, path, "expected an object");
  PointResult p;
  p.sweep = j.value("sweep", nlohmann::json());
  p.summary = member(j, "summary", source, path, T::object);
  const nlohmann::json& reps = member(j, "repetitions", source, path, T::array);
  if (reps.empty()) fail(source, path + ".repetitions", "no repetitions");
  for (size_t i = 0; i < reps.size(); ++i) {
    p.repetitions.push_back(
        parse_repetition(reps[i], source, path + ".repetitions[" + std::to_string(i) + "]"));
  }
  return p;
}

}  // namespace

std::string sweep_point_label(const PointResult& point) {
  if (!point.sweep.is_object()) return "";
  const nlohmann::json value = point.sweep.value("value", nlohmann::json());
  return point.sweep.value("field", std::string("?")) + "=" +
         (value.is_string() ? value.get<std::string>() : value.dump());
}

const PointResult* point_with_same_sweep(const ResultsFile& results, const PointResult& like) {
  for (const PointResult& p : results.points) {
    if (p.sweep == like.sweep) return &p;
  }
  return nullptr;
}

ResultsFile parse_results(const nlohmann::json& doc, const std::string& source) {
  using T = nlohmann::json::value_t;
  if (!doc.is_object()) fail(source, "$", "expected an object (an infergate results file)");
  const std::string schema = doc.value("schema", "");
  if (schema != kResultsSchema) {
    fail(source, "$.schema",
         "is '" + schema + "', expected '" + kResultsSchema +
             "' (is this an infergate results file?)");
  }
  ResultsFile r;
  r.source = source;
  r.doc = doc;
  r.incomplete = doc.value("incomplete", false);
  r.workload = member(doc, "workload", source, "$", T::object);
  r.workload_name = r.workload.value("name", "");
  r.workload_hash = member(doc, "workload_hash", source, "$", T::string).get<std::string>();
  r.manifest = member(doc, "manifest", source, "$", T::object);
  r.command = doc.value("command", "");
  r.created_at = doc.value("created_at", "");
  const nlohmann::json& points = member(doc, "points", source, "$", T::array);
  if (points.empty()) fail(source, "$.points", "no points");
  for (size_t i = 0; i < points.size(); ++i) {
    r.points.push_back(parse_point(points[i], source, "$.points[" + std::to_string(i) + "]"));
  }
  return r;
}

ResultsFile load_results(const std::string& path) {
  return parse_results(read_json_file(path), path);
}

nlohmann::json results_to_json(const ResultsFile& results) {
  nlohmann::json doc = results.doc;
  nlohmann::json points = nlohmann::json::array();
  for (const PointResult& p : results.points) {
    nlohmann::json reps = nlohmann::json::array();
    for (const RepetitionResult& r : p.repetitions) {
      nlohmann::json rep = {{"repetition", r.index},
                            {"incomplete", r.incomplete},
                            {"summary", r.summary},
                            {"engine", r.engine},
                            {"timeline", r.timeline}};
      if (!r.requests.empty()) rep["requests"] = r.requests;
      if (!r.cupti.is_null()) rep["cupti"] = r.cupti;
      reps.push_back(std::move(rep));
    }
    std::vector<nlohmann::json> summaries;
    for (const RepetitionResult& r : p.repetitions) summaries.push_back(r.summary);
    points.push_back(
        {{"sweep", p.sweep}, {"summary", mean_of_summaries(summaries)}, {"repetitions", reps}});
  }
  doc["points"] = points;
  if (points.size() == 1) doc["summary"] = points[0]["summary"];
  doc["incomplete"] = results.incomplete;
  return doc;
}

}  // namespace infergate
