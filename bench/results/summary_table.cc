#include "bench/results/summary_table.h"

#include <cstdio>
#include <string>
#include <vector>

namespace infergate {

namespace {

struct Column {
  const char* header;
  const char* path;  // JSON pointer into a summary
  double scale;
  const char* format;
};

const std::vector<Column>& columns() {
  static const std::vector<Column> c = {
      {"req/s", "/request_throughput_rps", 1, "%.2f"},
      {"TTFT p50 ms", "/ttft_ms/p50", 1, "%.1f"},
      {"TTFT p95 ms", "/ttft_ms/p95", 1, "%.1f"},
      {"TPOT p50 ms", "/tpot_ms/p50", 1, "%.2f"},
      {"TPOT p95 ms", "/tpot_ms/p95", 1, "%.2f"},
      {"out tok/s", "/output_throughput_tps", 1, "%.1f"},
      {"goodput/s", "/goodput_rps", 1, "%.2f"},
      {"peak MiB", "/peak_memory_bytes", 1.0 / 1048576.0, "%.0f"},
      {"util %", "/utilization_pct", 1, "%.0f"},
  };
  return c;
}

// "-" for a statistic of no values: a latency no request had is not a latency of zero.
bool no_values(const nlohmann::json& summary, const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == 0) return false;
  const nlohmann::json::json_pointer count(path.substr(0, slash) + "/count");
  return summary.contains(count) && summary[count].is_number() && summary[count].get<double>() == 0;
}

std::string cell(const nlohmann::json& summary, const Column& c) {
  const nlohmann::json::json_pointer ptr(c.path);
  if (!summary.contains(ptr) || !summary[ptr].is_number() || no_values(summary, c.path)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof(buf), c.format, summary[ptr].get<double>() * c.scale);
  return buf;
}

std::string percent(double fraction) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.3g%%", fraction * 100);
  return buf;
}

// Below the table: every point with failed requests, and a warning for each above the run's
// --max-error-share.
void print_errors(std::ostream& out, const nlohmann::json& results) {
  const double max_share = results.value("max_error_share", 1.0);
  for (const LabelledPointErrors& p : errors_by_point(results)) {
    const std::string where = p.label.empty() ? "" : p.label + ": ";
    if (p.errors.requests == 0) {
      out << "error: " << where << "no measured request was sent\n";
    } else if (p.errors.completed == 0) {
      out << "error: " << where << "no request succeeded: " << describe_errors(p.errors) << "\n";
    } else if (p.errors.share() > max_share) {
      out << "warning: " << where << describe_errors(p.errors) << " (" << percent(p.errors.share())
          << ", above --max-error-share " << percent(max_share) << ")\n";
    } else if (p.errors.errors > 0) {
      out << where << describe_errors(p.errors) << "\n";
    }
  }
}

// The quality section's figures: computed once per run, the same at every point.
void print_quality(std::ostream& out, const nlohmann::json& s) {
  const nlohmann::json kl = s.value("kl_divergence_mean", nlohmann::json());
  if (!kl.is_number()) return;
  char buf[160];
  std::snprintf(buf, sizeof(buf),
                "quality: KL divergence mean %.6f p99 %.6f nats, top-1 agreement %.2f%%, "
                "perplexity %.4f\n",
                kl.get<double>(), s.value("kl_divergence_p99", 0.0),
                100 * s.value("top1_agreement", 0.0), s.value("perplexity", 0.0));
  out << buf;
}

void print_row(std::ostream& out, const std::string& label, const nlohmann::json& summary) {
  char buf[64];
  std::snprintf(buf, sizeof(buf), "%-18s", label.c_str());
  out << buf;
  for (const Column& c : columns()) {
    std::snprintf(buf, sizeof(buf), " %12s", cell(summary, c).c_str());
    out << buf;
  }
  out << "\n";
}

// A ramp's stages (of the point's first repetition), a row each with the offered rate or
// users, and where the load stopped at saturation.
void print_ramp(std::ostream& out, const nlohmann::json& point) {
  const nlohmann::json& reps = point.at("repetitions");
  if (reps.empty() || !reps[0].contains("ramp")) return;
  const nlohmann::json& ramp = reps[0]["ramp"];
  const bool rate = ramp.value("field", std::string()) == "load.rate";
  char label[64];
  for (const nlohmann::json& stage : ramp.at("stages")) {
    std::snprintf(label, sizeof(label), rate ? " stage %d @%.3g/s" : " stage %d @%.3g u",
                  stage.value("stage", 0), stage.value("offered", 0.0));
    print_row(out, label, stage.at("summary"));
  }
  if (ramp.value("saturated_stage", nlohmann::json()).is_number()) {
    out << "saturated at stage " << ramp["saturated_stage"].get<int>() << ": "
        << ramp.value("saturation_reason", std::string()) << "; the load stopped there\n";
  }
}

}  // namespace

std::vector<LabelledPointErrors> errors_by_point(const nlohmann::json& results) {
  std::vector<LabelledPointErrors> out;
  for (const nlohmann::json& p : results.at("points")) {
    PointResult point;
    point.sweep = p.value("sweep", nlohmann::json());
    for (const nlohmann::json& rep : p.at("repetitions")) {
      RepetitionResult r;
      r.summary = rep.at("summary");
      r.errors = error_classes_from_json(rep.value("errors", nlohmann::json::array()));
      point.repetitions.push_back(std::move(r));
    }
    out.push_back({sweep_point_label(point), point_errors(point)});
  }
  return out;
}

void print_summary_table(std::ostream& out, const nlohmann::json& results) {
  const nlohmann::json& points = results.at("points");
  if (points.empty()) return;
  const bool sweep = !points[0]["sweep"].is_null();
  char buf[64];
  std::string header = sweep ? points[0]["sweep"]["field"].get<std::string>() : "point";
  std::snprintf(buf, sizeof(buf), "%-18s", header.c_str());
  out << "\n" << buf;
  for (const Column& c : columns()) {
    std::snprintf(buf, sizeof(buf), " %12s", c.header);
    out << buf;
  }
  out << "\n";
  for (const nlohmann::json& p : points) {
    print_row(out, sweep ? p["sweep"]["value"].dump() : "all", p["summary"]);
    print_ramp(out, p);
  }
  const nlohmann::json& s = points[0]["summary"];
  print_quality(out, s);
  if (s.value("harness_limited", false)) {
    out << "warning: harness-limited: the load generator fell behind its schedule (send lag grew "
           "by over 1 ms); the target was not offered the load the workload asks for\n";
  }
  print_errors(out, results);
}

}  // namespace infergate
