#include "common/imports/aiperf_import.h"

#include "common/imports/imported_request.h"
#include "common/imports/tool_time.h"

namespace infergate {

namespace {

enum class Unit { kTime, kTokens };

// The factor from the block's unit to ours (ms for times); refused when it is not the kind
// expected, so a unit AIPerf renames is never read as another.
double factor(const ImportReader& unit, Unit kind) {
  const std::string u = unit.string();
  if (kind == Unit::kTokens) {
    if (u == "tokens") return 1.0;
  } else if (u == "ms") {
    return 1.0;
  } else if (u == "ns") {
    return 1e-6;
  } else if (u == "us") {
    return 1e-3;
  } else if (u == "sec" || u == "s") {
    return 1e3;
  }
  unit.fail("'" + u + "' is not a unit this importer converts (expected " +
            (kind == Unit::kTokens ? "tokens" : "ns, us, ms or sec") + ")");
}

// A record metric block {unit, avg, p1 ... p99, min, max, std, count?}.
std::optional<ImportedStats> block(const ImportReader& doc, const char* tag, Unit kind) {
  const std::optional<ImportReader> b = doc.find(tag);
  if (!b) return std::nullopt;
  const double f = factor(b->at("unit"), kind);
  ImportedStats s;
  s.count = b->optional_count("count");
  s.mean = b->number("avg");
  for (const auto& [key, field] :
       {std::pair{"min", &ImportedStats::min}, std::pair{"p50", &ImportedStats::p50},
        std::pair{"p90", &ImportedStats::p90}, std::pair{"p95", &ImportedStats::p95},
        std::pair{"p99", &ImportedStats::p99}, std::pair{"max", &ImportedStats::max}}) {
    s.*field = b->optional_number(key);
  }
  return s.scaled(f);
}

// An aggregate or derived metric: {unit, avg}, avg holding the value; `unit` must be one of
// `units` (no conversion).
std::optional<double> scalar(const ImportReader& doc, const char* tag,
                             std::initializer_list<const char*> units) {
  const std::optional<ImportReader> b = doc.find(tag);
  if (!b) return std::nullopt;
  const std::string u = b->string("unit");
  bool known = false;
  for (const char* want : units) known = known || u == want;
  if (!known) b->fail("unit", "'" + u + "' is not the unit this importer expects of " + tag);
  return b->number("avg");
}

std::string model_of(const ImportReader& config) {
  if (const auto endpoint = config.find("endpoint")) {
    if (const auto names = endpoint->find("model_names"); names && names->expect_array().size())
      return names->element(0).string();
  }
  if (const auto models = config.find("models"); models && models->expect_array().size()) {
    const ImportReader first = models->element(0);
    return first.json().is_string() ? first.string() : first.string("name");
  }
  return "";
}

void read_settings(const ImportReader& doc, ImportedRun& run) {
  run.created_at = iso_from_local_iso(doc.optional_string("start_time").value_or(""));
  const std::optional<ImportReader> config = doc.find("input_config");
  if (!config) return;
  config->expect_object();
  run.model = model_of(*config);
  if (const auto loadgen = config->find("loadgen")) run.settings["loadgen"] = loadgen->json();
  if (const auto cli = config->optional_string("cli_command")) run.settings["cli_command"] = *cli;
  const nlohmann::json& loadgen = run.settings.value("loadgen", nlohmann::json::object());
  const ImportReader lg(loadgen, doc.file(), config->path() + ".loadgen");
  if (const auto rate = lg.optional_number("request_rate")) {
    run.load = {{"mode", "open"}, {"rate", *rate}};
    if (const auto cap = lg.optional_count("concurrency")) run.load["max_concurrency"] = *cap;
  } else if (const auto users = lg.optional_count("concurrency")) {
    run.load = {{"mode", "closed"}, {"concurrency", *users}};
  }
  if (const auto n = lg.optional_count("request_count")) run.load["num_requests"] = *n;
}

std::optional<double> record_value(const ImportReader& metrics, const char* tag, Unit kind) {
  const std::optional<ImportReader> m = metrics.find(tag);
  if (!m) return std::nullopt;
  return m->at("value").number() * factor(m->at("unit"), kind);
}

std::optional<std::vector<double>> record_gaps(const ImportReader& metrics, int64_t osl) {
  const std::optional<ImportReader> m = metrics.find("inter_chunk_latency");
  if (!m)
    return osl <= 1 ? std::optional<std::vector<double>>(std::vector<double>{}) : std::nullopt;
  const double f = factor(m->at("unit"), Unit::kTime);
  const ImportReader values = m->at("value").expect_array();
  std::vector<double> gaps;
  for (size_t k = 0; k < values.size(); ++k) gaps.push_back(values.element(k).number() * f);
  return gaps;
}

std::optional<double> send_lag_ms(const ImportReader& meta) {
  const auto issued = meta.optional_number("credit_issued_ns");
  if (!issued) return std::nullopt;
  const double start = meta.number("request_start_ns");
  if (start < *issued) meta.fail("request_start_ns", "is before credit_issued_ns");
  return (start - *issued) / 1e6;
}

ImportedRequest read_record(const ImportReader& line) {
  const ImportReader metrics = line.at("metrics").expect_object();
  ImportedRequest r;
  r.send_lag_ms = send_lag_ms(line.at("metadata").expect_object());
  r.ok = !line.has("error");
  if (!r.ok) {
    const ImportReader error = line.at("error").expect_object();
    r.error = error.optional_string("message").value_or(error.optional_string("type").value_or(""));
    r.input_tokens = int64_t(record_value(metrics, "error_isl", Unit::kTokens).value_or(0));
    return r;
  }
  r.ttft_ms = record_value(metrics, "time_to_first_token", Unit::kTime);
  r.e2e_ms = record_value(metrics, "request_latency", Unit::kTime);
  if (!r.e2e_ms) metrics.fail("request_latency", "missing in a successful record");
  r.input_tokens =
      int64_t(record_value(metrics, "input_sequence_length", Unit::kTokens).value_or(0));
  r.output_tokens =
      int64_t(record_value(metrics, "output_sequence_length", Unit::kTokens).value_or(0));
  r.gaps_ms = record_gaps(metrics, r.output_tokens);
  return r;
}

std::vector<ImportedRequest> read_records(const std::vector<ImportedDocument>& records,
                                          const std::string& file) {
  std::vector<ImportedRequest> requests;
  for (const ImportedDocument& d : records) {
    const ImportReader line(d.value, file, d.root_path);
    const ImportReader meta = line.expect_object().at("metadata").expect_object();
    if (meta.optional_string("benchmark_phase").value_or("profiling") != "profiling") continue;
    requests.push_back(read_record(line));
  }
  return requests;
}

// The summary's counts: successful requests and errors (absent when there were none).
void read_counts(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.num_completed = int64_t(scalar(doc, "request_count", {"requests"}).value_or(0));
  s.num_errors = int64_t(scalar(doc, "error_request_count", {"requests"}).value_or(0));
  s.num_requests = s.num_completed + s.num_errors;
  s.error_classes.clear();
  if (const auto summary = doc.find("error_summary")) {
    summary->expect_array();
    for (size_t i = 0; i < summary->size(); ++i) {
      const ImportReader e = summary->element(i);
      const ImportReader details = e.at("error_details").expect_object();
      const std::string type = details.optional_string("type").value_or("");
      const std::string message = details.optional_string("message").value_or("");
      s.error_classes.push_back({type.empty() ? message : type, e.count("count"), message});
    }
  }
  run.measured.insert({"num_requests", "num_completed", "num_errors", "num_aborted"});
}

void check_record_counts(const ImportReader& doc, const ImportedRun& from_records,
                         const ImportedRun& run, const std::string& records_file) {
  const RunSummary& a = from_records.summary;
  const RunSummary& b = run.summary;
  if (a.num_completed != b.num_completed || a.num_errors != b.num_errors) {
    doc.fail("request_count", std::to_string(b.num_completed) + " successful and " +
                                  std::to_string(b.num_errors) + " failed requests, but " +
                                  records_file + " holds " + std::to_string(a.num_completed) +
                                  " and " + std::to_string(a.num_errors) +
                                  " profiling records: the files are of different runs");
  }
}

void map_summary_blocks(const ImportReader& doc, ImportedRun& run) {
  const std::tuple<const char*, const char*, Unit> blocks[] = {
      {"time_to_first_token", "ttft_ms", Unit::kTime},
      {"inter_token_latency", "tpot_ms", Unit::kTime},
      {"inter_chunk_latency", "itl_ms", Unit::kTime},
      {"request_latency", "e2e_ms", Unit::kTime},
      {"input_sequence_length", "input_tokens", Unit::kTokens},
      {"output_sequence_length", "output_tokens", Unit::kTokens}};
  for (const auto& [tag, ours, kind] : blocks) {
    if (run.distributions.count(ours)) continue;  // computed from the records
    if (const auto stats = block(doc, tag, kind)) run.distributions[ours] = *stats;
  }
}

void read_rates(const ImportReader& doc, ImportedRun& run) {
  RunSummary& s = run.summary;
  const auto duration = scalar(doc, "benchmark_duration", {"sec", "s"});
  if (!duration) doc.fail("benchmark_duration", "missing (a required metric block)");
  s.duration_s = *duration;
  run.measured.insert("duration_s");
  const std::tuple<const char*, const char*, double RunSummary::*, const char*> rates[] = {
      {"request_throughput", "requests/sec", &RunSummary::request_throughput_rps,
       "request_throughput_rps"},
      {"output_token_throughput", "tokens/sec", &RunSummary::output_throughput_tps,
       "output_throughput_tps"},
      {"total_token_throughput", "tokens/sec", &RunSummary::total_throughput_tps,
       "total_throughput_tps"},
      {"goodput", "requests/sec", &RunSummary::goodput_rps, "goodput_rps"}};
  for (const auto& [tag, unit, member, ours] : rates) {
    if (const auto v = scalar(doc, tag, {unit})) {
      s.*member = *v;
      run.measured.insert(ours);
    }
  }
  // Older exports have no total_token_throughput: ours is (input + output tokens) / window.
  const auto isl = scalar(doc, "total_isl", {"tokens"});
  const auto osl = scalar(doc, "total_osl", {"tokens"});
  if (!run.measured.count("total_throughput_tps") && isl && osl && s.duration_s > 0) {
    s.total_throughput_tps = (*isl + *osl) / s.duration_s;
    run.measured.insert("total_throughput_tps");
  }
  if (run.measured.count("goodput_rps")) {
    run.measured.insert("good_fraction");
    run.notes.push_back("goodput_rps: AIPerf's goodput under the SLOs it was given");
  }
}

void add_notes(ImportedRun& run, bool records) {
  run.notes.push_back(records ? "ttft_ms, tpot_ms, itl_ms, e2e_ms, input_tokens, output_tokens: "
                                "computed from AIPerf's per-request records with our definitions"
                              : "no per-request records (profile_export.jsonl) beside the file: "
                                "distributions are AIPerf's summary blocks (numpy-linear "
                                "percentiles, as ours)");
  run.notes.push_back(
      "tpot_ms is AIPerf's inter_token_latency ((latency - TTFT) / (OSL - 1)); "
      "itl_ms is its inter_chunk_latency, per chunk (ours is per token: the same "
      "when every chunk carries one token)");
  run.notes.push_back(
      "ttft_ms, e2e_ms: from the actual send (AIPerf's request start), not from "
      "the scheduled send as ours: client-side queueing is left out");
  run.notes.push_back(
      "output_tokens and output_throughput_tps count AIPerf's output sequence "
      "length, reasoning tokens included, by its client-side tokenizer");
  run.notes.push_back(
      "duration_s: AIPerf's benchmark_duration, first send to last response "
      "(ours starts at the first scheduled send)");
  run.notes.push_back(
      "no per-request records written: AIPerf's records carry no scheduled send "
      "time (credit_issued_ns only in newer versions), which ours are anchored at");
}

}  // namespace

ImportedRun import_aiperf(const ImportReader& summary, const DetectedTool& detected,
                          const std::vector<ImportedDocument>& records,
                          const std::string& records_file) {
  summary.expect_object();
  ImportedRun run;
  run.tool = detected.name;
  run.tool_slug = "aiperf";
  run.version = detected.version;
  read_settings(summary, run);
  read_counts(summary, run);
  if (!records.empty()) {
    ImportedRun from_records = run;
    summarize_requests(read_records(records, records_file), from_records);
    check_record_counts(summary, from_records, run, records_file);
    run.distributions = from_records.distributions;
    run.notes = from_records.notes;
    run.notes.push_back("per-request records read from " + records_file);
    if (run.summary.error_classes.empty())
      run.summary.error_classes = from_records.summary.error_classes;
  }
  map_summary_blocks(summary, run);
  read_rates(summary, run);
  add_notes(run, !records.empty());
  if (summary.has("was_cancelled") && summary.at("was_cancelled").json() == true) {
    run.notes.push_back("AIPerf marked the run as cancelled (was_cancelled: true)");
  }
  return run;
}

}  // namespace infergate
