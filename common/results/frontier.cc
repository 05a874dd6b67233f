#include "common/results/frontier.h"

#include <algorithm>
#include <cstdio>
#include <initializer_list>

namespace infergate {

namespace {

using nlohmann::json;

// The member at `path`, or null when any step is missing.
json member(const json& j, std::initializer_list<const char*> path) {
  const json* at = &j;
  for (const char* key : path) {
    if (!at->is_object() || !at->contains(key)) return nullptr;
    at = &at->at(key);
  }
  return *at;
}

std::optional<double> number(const json& j) {
  return j.is_number() ? std::optional<double>(j.get<double>()) : std::nullopt;
}

// A parallel degree from the resolved workload: absent (the default) or invalid counts as 1.
int degree(const json& object, const char* key, int fallback = 1) {
  const json v = member(object, {key});
  return v.is_number_integer() && v.get<int64_t>() >= 1 ? int(v.get<int64_t>()) : fallback;
}

struct Devices {
  int count = 1;
  std::string note;
};

// Expert parallelism shares the tensor-parallel ranks, so it adds no devices.
Devices devices_of(const json& workload) {
  const json target = member(workload, {"target"});
  const json type_json = member(target, {"type"});
  const std::string type = type_json.is_string() ? type_json.get<std::string>() : "engine";
  if (type == "openai" || type == "echo") {
    return {1, "the devices behind an " + type +
                   " target are unknown: the figures per device are per target"};
  }
  const json engine = member(target, {"engine"});
  const int tp = degree(engine, "tensor_parallel"), pp = degree(engine, "pipeline_parallel");
  Devices d{tp * pp,
            "tensor_parallel " + std::to_string(tp) + " x pipeline_parallel " + std::to_string(pp)};
  // A router target has replicas (2 by default); a simulated one only with a router object.
  const json router = member(target, {"router"});
  if (type == "router" || router.is_object()) {
    const int replicas = degree(router, "replicas", type == "router" ? 2 : 1);
    d.count *= replicas;
    d.note += " x " + std::to_string(replicas) + " router replicas";
  }
  return d;
}

// The share points are marked at; none when the workload bounds no latency.
std::optional<double> share_of(const json& workload) {
  const json slo = member(workload, {"slo"});
  if (!slo.is_object() || slo.empty()) return std::nullopt;
  return number(member(workload, {"load", "search", "goodput_share"}))
      .value_or(kDefaultGoodputShare);
}

// What a point is plotted from, taken from a summary map or a probe's RunSummary.
struct Figures {
  std::optional<double> tpot_p50, output_tps, good_fraction;
};

Figures figures_of(const json& summary) {
  return {number(member(summary, {"tpot_ms", "p50"})),
          number(member(summary, {"output_throughput_tps"})),
          number(member(summary, {"good_fraction"}))};
}

Figures figures_of(const RunSummary& s) {
  return {s.tpot_ms.p50, s.output_throughput_tps, s.good_fraction};
}

void add_point(Frontier& f, std::string label, double load, const Figures& figures) {
  if (!figures.tpot_p50 || !(*figures.tpot_p50 > 0) || !figures.output_tps) return;
  FrontierPoint p;
  p.label = std::move(label);
  p.load = load;
  p.tokens_per_user_s = 1000 / *figures.tpot_p50;
  p.tokens_per_device_s = *figures.output_tps / f.devices;
  p.good_fraction = figures.good_fraction.value_or(0);
  // A point's fraction is a mean over repetitions: allow its rounding at the share exactly.
  if (f.share) p.meets_slo = p.good_fraction + 1e-12 >= *f.share;
  f.points.push_back(std::move(p));
}

bool is_load_field(const json& sweep) {
  const json field = member(sweep, {"field"});
  return field == "load.rate" || field == "load.concurrency";
}

bool is_load_sweep(const ResultsFile& r) {
  return r.points.size() >= 2 && std::all_of(r.points.begin(), r.points.end(), [](const auto& p) {
           return is_load_field(p.sweep) && member(p.sweep, {"value"}).is_number();
         });
}

const SearchRecord* single_search(const ResultsFile& r) {
  if (r.points.size() != 1 || r.points[0].repetitions.empty()) return nullptr;
  const std::optional<SearchRecord>& search = r.points[0].repetitions[0].search;
  return search ? &*search : nullptr;
}

std::string probe_label(const SearchRecord& s, const SearchProbeRecord& p) {
  char load[32];
  std::snprintf(load, sizeof load, "%g", p.load);
  return "probe " + std::to_string(p.index) + ": " + s.field + "=" + load;
}

bool dominates(const FrontierPoint& a, const FrontierPoint& b) {
  return a.tokens_per_user_s >= b.tokens_per_user_s &&
         a.tokens_per_device_s >= b.tokens_per_device_s &&
         (a.tokens_per_user_s > b.tokens_per_user_s ||
          a.tokens_per_device_s > b.tokens_per_device_s);
}

void mark_frontier(std::vector<FrontierPoint>& points) {
  for (FrontierPoint& p : points) {
    p.on_frontier = std::none_of(points.begin(), points.end(),
                                 [&](const FrontierPoint& q) { return dominates(q, p); });
  }
}

json optional_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

}  // namespace

std::optional<Frontier> frontier_of(const ResultsFile& results) {
  Frontier f;
  const Devices devices = devices_of(results.workload);
  f.devices = devices.count;
  f.devices_note = devices.note;
  f.share = share_of(results.workload);
  if (is_load_sweep(results)) {
    f.source = "sweep";
    for (const PointResult& p : results.points) {
      add_point(f, sweep_point_label(p), p.sweep["value"].get<double>(), figures_of(p.summary));
    }
  } else if (const SearchRecord* search = single_search(results)) {
    f.source = "search";
    for (const SearchProbeRecord& p : search->probes) {
      add_point(f, probe_label(*search, p), p.load, figures_of(p.summary));
    }
  } else {
    return std::nullopt;
  }
  if (f.points.size() < 2) return std::nullopt;
  std::stable_sort(f.points.begin(), f.points.end(),
                   [](const auto& a, const auto& b) { return a.load < b.load; });
  mark_frontier(f.points);
  return f;
}

std::vector<const FrontierPoint*> frontier_line(const Frontier& frontier) {
  std::vector<const FrontierPoint*> line;
  for (const FrontierPoint& p : frontier.points) {
    if (p.on_frontier) line.push_back(&p);
  }
  std::stable_sort(line.begin(), line.end(), [](const FrontierPoint* a, const FrontierPoint* b) {
    if (a->tokens_per_user_s != b->tokens_per_user_s) {
      return a->tokens_per_user_s < b->tokens_per_user_s;
    }
    return a->tokens_per_device_s < b->tokens_per_device_s;
  });
  return line;
}

json to_json(const Frontier& frontier) {
  json points = json::array();
  for (const FrontierPoint& p : frontier.points) {
    points.push_back({{"label", p.label},
                      {"load", p.load},
                      {"tokens_per_user_s", p.tokens_per_user_s},
                      {"tokens_per_device_s", p.tokens_per_device_s},
                      {"good_fraction", p.good_fraction},
                      {"meets_slo", p.meets_slo ? json(*p.meets_slo) : json(nullptr)},
                      {"on_frontier", p.on_frontier}});
  }
  return {{"devices", frontier.devices},
          {"devices_note", frontier.devices_note},
          {"goodput_share", optional_json(frontier.share)},
          {"source", frontier.source},
          {"points", std::move(points)}};
}

}  // namespace infergate
