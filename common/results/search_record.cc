#include "common/results/search_record.h"

#include <algorithm>
#include <iterator>

namespace infergate {

namespace {

constexpr const char* kProbeRoles[] = {"from", "to", "bisect", "reprobe", "fixed"};

nlohmann::json optional_json(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json probe_json(const SearchProbeRecord& p) {
  return {{"index", p.index},
          {"load", p.load},
          {"role", p.role},
          {"seed", p.seed},
          {"slo_ratio", optional_json(p.slo_ratio)},
          {"meets", p.meets},
          {"seconds", p.seconds},
          {"summary", summary_to_json(p.summary)}};
}

nlohmann::json cliff_json(const SearchCliffRecord& c) {
  return {{"from_load", c.from_load},
          {"to_load", c.to_load},
          {"from_ttft_p99_ms", c.from_ttft_p99_ms},
          {"to_ttft_p99_ms", c.to_ttft_p99_ms},
          {"factor", c.factor}};
}

template <size_t N>
std::string one_of(const SectionReader& r, const char* key, const char* const (&allowed)[N]) {
  const std::string v = r.text(key);
  if (std::find(std::begin(allowed), std::end(allowed), v) != std::end(allowed)) return v;
  std::string list;
  for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
  r.fail(key, "\"" + v + "\" is not one of " + list);
}

SearchProbeRecord read_probe(const SectionReader& r) {
  SearchProbeRecord p;
  p.index = r.integer("index");
  p.load = r.number("load");
  p.role = one_of(r, "role", kProbeRoles);
  p.seed = uint64_t(r.integer("seed"));
  p.slo_ratio = r.optional_number("slo_ratio");
  p.meets = r.flag("meets");
  p.seconds = r.number("seconds");
  p.summary = read_run_summary(r.object("summary"));
  return p;
}

SearchCliffRecord read_cliff(const SectionReader& r) {
  SearchCliffRecord c;
  c.from_load = r.number("from_load");
  c.to_load = r.number("to_load");
  c.from_ttft_p99_ms = r.number("from_ttft_p99_ms");
  c.to_ttft_p99_ms = r.number("to_ttft_p99_ms");
  c.factor = r.number("factor");
  return c;
}

}  // namespace

nlohmann::json to_json(const SearchRecord& r) {
  nlohmann::json probes = nlohmann::json::array(), cliffs = nlohmann::json::array();
  for (const SearchProbeRecord& p : r.probes) probes.push_back(probe_json(p));
  for (const SearchCliffRecord& c : r.cliffs) cliffs.push_back(cliff_json(c));
  return {{"field", r.field},
          {"unit", r.unit},
          {"goodput_share", r.goodput_share},
          {"requests_per_probe", r.requests_per_probe},
          {"precision", r.precision},
          {"status", r.status},
          {"capacity", optional_json(r.capacity)},
          {"low", optional_json(r.low)},
          {"high", optional_json(r.high)},
          {"summary_probe", r.summary_probe ? nlohmann::json(*r.summary_probe) : nullptr},
          {"verdict", r.verdict},
          {"seconds", r.seconds},
          {"probes", std::move(probes)},
          {"cliffs", std::move(cliffs)}};
}

SearchRecord read_search_record(const SectionReader& r) {
  SearchRecord out;
  out.field = r.text("field");
  out.unit = r.text("unit");
  out.goodput_share = r.number("goodput_share");
  out.requests_per_probe = r.integer("requests_per_probe");
  out.precision = r.number("precision");
  out.status = one_of(r, "status", kSearchStatuses);
  out.capacity = r.optional_number("capacity");
  out.low = r.optional_number("low");
  out.high = r.optional_number("high");
  if (out.low && out.high && *out.low > *out.high) {
    r.fail("low", "the bracket's low end is above its high end");
  }
  out.summary_probe = r.optional_integer("summary_probe");
  out.verdict = r.text("verdict");
  out.seconds = r.number("seconds");
  for (const SectionReader& p : r.array("probes")) out.probes.push_back(read_probe(p));
  for (const SectionReader& c : r.array("cliffs")) out.cliffs.push_back(read_cliff(c));
  if (out.summary_probe &&
      (*out.summary_probe < 0 || *out.summary_probe >= int64_t(out.probes.size()))) {
    r.fail("summary_probe", "is not the index of one of its probes");
  }
  return out;
}

}  // namespace infergate
