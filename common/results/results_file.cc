#include "common/results/results_file.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "common/io/json_file.h"
#include "common/results/measured_workload.h"
#include "common/results/metric_registry.h"
#include "common/results/request_samples.h"
#include "common/results/section_reader.h"
#include "common/results/summary_mean.h"

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

// ---- semantic checks of what the gates read (docs/results-schema.md, "What a reader checks")

// A listed metric has the registry's shape and bound; another (bench-comm's) is a plain number.
MetricShape shape_of(const std::string& key) {
  const std::optional<MetricInfo> info = find_metric(key);
  return info ? info->shape : MetricShape::kNumber;
}

double upper_bound(const std::string& key) {
  const std::optional<MetricInfo> info = find_metric(key);
  return info ? info->upper_bound() : kUnlistedMetricBound;
}

// Whole numbers without a fraction ("40", not "40.0"), others as JSON writes them.
std::string number_text(double v) {
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    return std::to_string(static_cast<int64_t>(v));
  }
  return nlohmann::json(v).dump();
}

std::string text_of(const nlohmann::json& v) {
  return v.is_number() ? number_text(v.get<double>()) : v.dump();
}

const char* shape_name(MetricShape shape) {
  switch (shape) {
    case MetricShape::kCount:
      return "a count";
    case MetricShape::kFraction:
      return "a fraction in 0 .. 1";
    case MetricShape::kDistribution:
    case MetricShape::kOptionalDistribution:
      return "an object of statistics (count, mean, min, p50, p90, p95, p99, max)";
    case MetricShape::kFlag:
      return "a boolean";
    default:
      return "a number";
  }
}

struct SummaryCheck {
  const std::string& source;
  std::string path;  // of the summary object
  bool repetition;   // counts are whole numbers in a repetition, means in a point
};

void check_number(const nlohmann::json& v, const SummaryCheck& c, const std::string& where,
                  double max, bool whole) {
  if (!v.is_number()) {
    fail(c.source, where, std::string("expected a number, got ") + v.type_name());
  }
  const double d = v.get<double>();
  if (!std::isfinite(d) || d < 0 || d > max) {
    fail(c.source, where,
         number_text(d) + " is out of range (allowed: 0 .. " + number_text(max) + ")");
  }
  if (whole && d != std::floor(d)) fail(c.source, where, number_text(d) + " is not a whole count");
}

void check_stats(const nlohmann::json& v, const std::string& key, const SummaryCheck& c) {
  const std::string where = c.path + "." + key;
  if (!v.is_object()) {
    fail(c.source, where,
         std::string("expected ") + shape_name(MetricShape::kDistribution) + ", got " +
             v.type_name());
  }
  for (const auto& [stat, value] : v.items()) {
    check_number(value, c, where + "." + stat, stat == "count" ? 1e12 : upper_bound(key),
                 stat == "count" && c.repetition);
  }
  // Order statistics in order: a p95 below the p50 is not a distribution.
  double previous = 0;
  std::string previous_name;
  for (const char* stat : {"min", "p50", "p90", "p95", "p99", "max"}) {
    if (!v.contains(stat)) continue;
    const double d = v[stat].get<double>();
    if (!previous_name.empty() && d < previous * (1 - 1e-9)) {
      fail(c.source, where + "." + stat,
           number_text(d) + " is below " + previous_name + " (" + number_text(previous) + ")");
    }
    previous = d;
    previous_name = stat;
  }
}

void check_field(const std::string& key, const nlohmann::json& v, const SummaryCheck& c) {
  using enum MetricShape;
  const MetricShape shape = shape_of(key);
  const std::string where = c.path + "." + key;
  if (shape == kOptionalDistribution && v.is_null()) {
    // not measured (e.g. TTFOT without a reasoning stream): absent for the gates
  } else if (shape == kDistribution || shape == kOptionalDistribution ||
             (shape == kNumber && v.is_object())) {
    check_stats(v, key, c);
  } else if (shape == kFlag || (shape == kNumber && v.is_boolean())) {
    if (!v.is_boolean())
      fail(c.source, where, std::string("expected a boolean, got ") + v.type_name());
  } else if (v.is_null() && (shape == kOptionalNumber || shape == kNumber)) {
    // not measured (e.g. peak GPU memory without NVML): absent for the gates
  } else if (!v.is_number()) {
    fail(c.source, where, std::string("expected ") + shape_name(shape) + ", got " + v.type_name());
  } else {
    check_number(v, c, where, upper_bound(key), shape == kCount && c.repetition);
  }
}

void check_counts(const nlohmann::json& s, const SummaryCheck& c) {
  const auto count = [&](const char* k) { return s.value(k, nlohmann::json()); };
  const nlohmann::json requests = count("num_requests"), completed = count("num_completed"),
                       errors = count("num_errors"), aborted = count("num_aborted");
  if (requests.is_number() && completed.is_number() && errors.is_number() && aborted.is_number() &&
      std::fabs(completed.get<double>() + errors.get<double>() + aborted.get<double>() -
                requests.get<double>()) > 1e-6 * std::max(1.0, requests.get<double>())) {
    fail(c.source, c.path + ".num_requests",
         text_of(requests) + " is not num_completed + num_errors + num_aborted (" +
             text_of(completed) + " + " + text_of(errors) + " + " + text_of(aborted) + ")");
  }
  if (c.repetition && requests.is_number() && errors.is_number() && s.contains("error_share")) {
    const double want =
        requests.get<double>() > 0 ? errors.get<double>() / requests.get<double>() : 0.0;
    if (std::fabs(s["error_share"].get<double>() - want) > 1e-9) {
      fail(c.source, c.path + ".error_share",
           number_text(s["error_share"].get<double>()) + " is not num_errors / num_requests (" +
               number_text(want) + ")");
    }
  }
}

void check_summary(const nlohmann::json& s, const SummaryCheck& c) {
  for (const auto& [key, value] : s.items()) check_field(key, value, c);
  check_counts(s, c);
}

// Every value a point summary shows must be the mean of its repetitions' (as the harness wrote
// it): a report must never show a number the verdict did not come from.
void check_mean(const nlohmann::json& stored, const nlohmann::json& mean, const std::string& source,
                const std::string& path) {
  if (stored.is_object()) {
    for (const auto& [key, value] : stored.items()) {
      const std::string where = path + "." + key;
      if (!mean.is_object() || !mean.contains(key)) {
        if (value.is_null()) continue;
        fail(source, where, "is in no repetition's summary (a point summary is their mean)");
      }
      check_mean(value, mean[key], source, where);
    }
    return;
  }
  const bool same = stored.is_number() && mean.is_number()
                        ? std::fabs(stored.get<double>() - mean.get<double>()) <=
                              1e-9 * std::max(std::fabs(mean.get<double>()), 1e-300)
                        : stored == mean;
  if (!same) {
    fail(source, path,
         text_of(stored) + " is not the mean of its repetitions (" + text_of(mean) +
             "): the file was edited or is corrupt");
  }
}

void check_point_summary(const PointResult& p, const std::string& source, const std::string& path) {
  std::vector<nlohmann::json> summaries;
  for (const RepetitionResult& r : p.repetitions) summaries.push_back(r.summary);
  check_mean(p.summary, mean_of_summaries(summaries), source, path + ".summary");
}

// Records ~ 1 us apart after trimming; the harness summarized nanoseconds.
bool agrees(double summary, double records) {
  return std::fabs(summary - records) <= 0.01 + 1e-6 * std::fabs(records);
}

int64_t records_with_status(const std::vector<RecordedRequest>& requests, const char* status) {
  int64_t n = 0;
  for (const RecordedRequest& r : requests) n += !r.warmup && r.status == status;
  return n;
}

// A summary that says something else than its own request records was edited: the gates judge
// latency percentiles from the records, so the two must agree.
void check_against_records(const RepetitionResult& r, const std::string& source,
                           const std::string& path) {
  if (r.requests.empty()) return;
  const std::pair<const char*, const char*> counts[] = {
      {"num_completed", "ok"}, {"num_errors", "error"}, {"num_aborted", "aborted"}};
  for (const auto& [field, status] : counts) {
    const int64_t n = records_with_status(r.requests, status);
    if (r.summary.contains(field) && r.summary[field].get<double>() != double(n)) {
      fail(source, path + ".summary." + field,
           number_text(r.summary[field].get<double>()) + " disagrees with the request records (" +
               std::to_string(n) + " " + status + ")");
    }
  }
  for (const char* metric : {"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms"}) {
    if (!r.summary.contains(metric)) continue;
    const std::vector<double> samples = request_samples(r.requests, metric);
    for (const auto& [stat, value] : r.summary[metric].items()) {
      const std::optional<double> want = stat == "count"
                                             ? std::optional<double>(double(samples.size()))
                                         : samples.empty() ? std::optional<double>(0.0)
                                                           : sample_statistic(samples, stat);
      if (want && !agrees(value.get<double>(), *want)) {
        fail(source, path + ".summary." + metric + "." + stat,
             number_text(value.get<double>()) + " disagrees with the request records (" +
                 number_text(*want) + " from " + std::to_string(samples.size()) +
                 " values): the file was edited or is corrupt");
      }
    }
  }
}

std::vector<ErrorClass> checked_errors(const nlohmann::json& j, const RepetitionResult& r,
                                       const std::string& source, const std::string& path) {
  if (!j.is_array()) fail(source, path, std::string("expected an array, got ") + j.type_name());
  double total = 0;
  for (size_t i = 0; i < j.size(); ++i) {
    const nlohmann::json& e = j[i];
    const std::string where = path + "[" + std::to_string(i) + "]";
    if (!e.is_object() || !e.value("class", nlohmann::json()).is_string() ||
        !e.value("first_message", nlohmann::json()).is_string() ||
        !e.value("count", nlohmann::json()).is_number_integer() || e["count"].get<int64_t>() < 1 ||
        e["count"].get<int64_t>() > int64_t(1e12)) {
      fail(source, where,
           "expected {\"class\": string, \"count\": >= 1, \"first_message\": string}");
    }
    total += e["count"].get<double>();
  }
  if (r.summary.contains("num_errors") && r.summary["num_errors"].get<double>() != total) {
    fail(source, path,
         "its classes count " + number_text(total) +
             " failed requests, but the summary's num_errors is " +
             number_text(r.summary["num_errors"].get<double>()));
  }
  return error_classes_from_json(j);
}

void check_workload_hash(const ResultsFile& r, const std::string& source) {
  const std::string recomputed = measured_workload_hash(r.workload, r.workload_dir);
  if (recomputed != r.workload_hash) {
    fail(source, "$.workload_hash",
         "'" + r.workload_hash + "' is not the hash of the embedded $.workload ('" + recomputed +
             "'): the workload was edited after the run, the file is corrupt, or an infergate with "
             "another hash definition wrote it (rerun it)");
  }
}

// An optional member of one type: absent gives `fallback`, another type is an error naming it
// (instead of a library exception that names nothing).
template <typename V>
V optional_member(const nlohmann::json& obj, const char* key, V fallback, const std::string& source,
                  const std::string& path, nlohmann::json::value_t type) {
  if (!obj.contains(key)) return fallback;
  return member(obj, key, source, path, type).get<V>();
}

RepetitionResult parse_repetition(const nlohmann::json& j, const std::string& source,
                                  const std::string& path) {
  using T = nlohmann::json::value_t;
  if (!j.is_object()) fail(source, path, "expected an object");
  RepetitionResult r;
  r.index = member(j, "repetition", source, path, T::number_integer).get<int>();
  r.summary = member(j, "summary", source, path, T::object);
  check_summary(r.summary, {source, path + ".summary", /*repetition=*/true});
  r.incomplete = optional_member(j, "incomplete", false, source, path, T::boolean);
  const SectionReader rep(j, source, path);
  if (rep.has("engine")) r.engine = read_target_stats(rep.object("engine"));
  if (rep.has("timeline")) r.timeline = read_timeline(rep.at("timeline"));
  if (j.contains("requests")) {
    const nlohmann::json& requests = member(j, "requests", source, path, T::array);
    try {
      check_request_records(requests);
    } catch (const std::invalid_argument& e) {
      throw ResultsError(source + ": " + path + ".requests" + e.what());
    }
    r.requests = requests_from_json(requests);
  }
  check_against_records(r, source, path);
  if (j.contains("errors")) r.errors = checked_errors(j["errors"], r, source, path + ".errors");
  if (rep.has("cupti")) r.cupti = read_cupti_record(rep.object("cupti"));
  if (rep.has("energy")) r.energy = read_energy_record(rep.object("energy"));
  if (rep.has("sessions")) r.sessions = read_sessions_record(rep.object("sessions"));
  if (rep.has("server")) r.server = read_server_side_record(rep.object("server"));
  if (rep.has("ramp")) r.ramp = read_ramp_record(rep.object("ramp"));
  if (rep.has("search")) r.search = read_search_record(rep.object("search"));
  if (rep.has("load_ranks")) r.load_ranks = read_load_ranks(rep.at("load_ranks"));
  return r;
}

PointResult parse_point(const nlohmann::json& j, const std::string& source,
                        const std::string& path) {
  using T = nlohmann::json::value_t;
  if (!j.is_object()) fail(source, path, "expected an object");
  PointResult p;
  p.sweep = j.value("sweep", nlohmann::json());
  if (!p.sweep.is_null() &&
      (!p.sweep.is_object() || !p.sweep.value("field", nlohmann::json()).is_string())) {
    fail(source, path + ".sweep", "expected null or {\"field\": string, \"value\": ...}");
  }
  p.summary = member(j, "summary", source, path, T::object);
  const nlohmann::json& reps = member(j, "repetitions", source, path, T::array);
  if (reps.empty()) fail(source, path + ".repetitions", "no repetitions");
  for (size_t i = 0; i < reps.size(); ++i) {
    p.repetitions.push_back(
        parse_repetition(reps[i], source, path + ".repetitions[" + std::to_string(i) + "]"));
  }
  // After the repetitions, so a bad value is named where it was measured.
  check_summary(p.summary, {source, path + ".summary", /*repetition=*/false});
  check_point_summary(p, source, path);
  return p;
}

nlohmann::json repetition_to_json(const RepetitionResult& r) {
  nlohmann::json rep = {{"repetition", r.index},
                        {"incomplete", r.incomplete},
                        {"summary", r.summary},
                        {"errors", error_classes_to_json(r.errors)},
                        {"engine", r.engine ? to_json(*r.engine) : nlohmann::json()},
                        {"timeline", timeline_to_json(r.timeline)}};
  if (!r.requests.empty()) rep["requests"] = requests_to_json(r.requests);
  if (r.cupti) rep["cupti"] = to_json(*r.cupti);
  if (r.energy) rep["energy"] = to_json(*r.energy);
  if (r.sessions) rep["sessions"] = to_json(*r.sessions);
  if (r.server) rep["server"] = to_json(*r.server);
  if (r.ramp) rep["ramp"] = to_json(*r.ramp);
  if (r.search) rep["search"] = to_json(*r.search);
  if (r.load_ranks) rep["load_ranks"] = load_ranks_to_json(*r.load_ranks);
  return rep;
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
  const nlohmann::json schema_value = doc.value("schema", nlohmann::json(""));
  const std::string schema = schema_value.is_string() ? schema_value.get<std::string>() : "?";
  if (schema != kResultsSchema) {
    fail(source, "$.schema",
         "is '" + schema + "', expected '" + kResultsSchema +
             "' (is this an infergate results file?)");
  }
  ResultsFile r;
  r.source = source;
  r.doc = doc;
  r.incomplete = optional_member(doc, "incomplete", false, source, "$", T::boolean);
  r.workload = member(doc, "workload", source, "$", T::object);
  r.workload_name =
      optional_member(r.workload, "name", std::string(), source, "$.workload", T::string);
  r.workload_hash = member(doc, "workload_hash", source, "$", T::string).get<std::string>();
  if (doc.contains("workload_dir")) {
    r.workload_dir = member(doc, "workload_dir", source, "$", T::string).get<std::string>();
  }
  check_workload_hash(r, source);
  r.manifest = member(doc, "manifest", source, "$", T::object);
  r.command = optional_member(doc, "command", std::string(), source, "$", T::string);
  r.created_at = optional_member(doc, "created_at", std::string(), source, "$", T::string);
  const nlohmann::json& points = member(doc, "points", source, "$", T::array);
  if (points.empty()) fail(source, "$.points", "no points");
  for (size_t i = 0; i < points.size(); ++i) {
    r.points.push_back(parse_point(points[i], source, "$.points[" + std::to_string(i) + "]"));
  }
  if (doc.contains("summary") && r.points.size() == 1) {
    check_mean(doc["summary"], r.points[0].summary, source, "$.summary");
  }
  return r;
}

PointErrors point_errors(const PointResult& point) {
  PointErrors out;
  for (const RepetitionResult& r : point.repetitions) {
    out.requests += r.summary.value("num_requests", int64_t{0});
    out.errors += r.summary.value("num_errors", int64_t{0});
    out.completed += r.summary.value("num_completed", int64_t{0});
    for (const ErrorClass& e : r.errors) {
      auto it = std::find_if(out.classes.begin(), out.classes.end(),
                             [&](const ErrorTally& t) { return t.error_class == e.name; });
      if (it == out.classes.end())
        it = out.classes.insert(out.classes.end(), {e.name, 0, e.first_message});
      it->count += e.count;
    }
  }
  std::stable_sort(out.classes.begin(), out.classes.end(),
                   [](const ErrorTally& a, const ErrorTally& b) { return a.count > b.count; });
  return out;
}

std::string describe_errors(const PointErrors& e) {
  constexpr size_t kMessageChars = 160;
  std::string text =
      std::to_string(e.errors) + " of " + std::to_string(e.requests) + " requests failed";
  for (size_t i = 0; i < e.classes.size(); ++i) {
    const ErrorTally& t = e.classes[i];
    std::string first = t.first_message.substr(0, kMessageChars);
    if (t.first_message.size() > kMessageChars) first += "...";
    text += (i == 0 ? ": " : "; ") + t.error_class + ": " + std::to_string(t.count) +
            " (first: " + first + ")";
  }
  return text;
}

ResultsFile load_results(const std::string& path) {
  return parse_results(read_json_file(path), path);
}

nlohmann::json results_to_json(const ResultsFile& results) {
  nlohmann::json doc = results.doc;
  nlohmann::json points = nlohmann::json::array();
  for (const PointResult& p : results.points) {
    nlohmann::json reps = nlohmann::json::array();
    std::vector<nlohmann::json> summaries;
    for (const RepetitionResult& r : p.repetitions) {
      reps.push_back(repetition_to_json(r));
      summaries.push_back(r.summary);
    }
    points.push_back(
        {{"sweep", p.sweep}, {"summary", mean_of_summaries(summaries)}, {"repetitions", reps}});
  }
  doc["points"] = points;
  if (points.size() == 1) doc["summary"] = points[0]["summary"];
  doc["incomplete"] = results.incomplete;
  return doc;
}

}  // namespace infergate
