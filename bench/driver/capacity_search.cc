#include "bench/driver/capacity_search.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "bench/metrics/capacity_estimate.h"

namespace infergate {

namespace {

// "63.2", "120", "4.35", "10": three significant figures, no exponent.
std::string figure(double v) {
  char text[64];
  std::snprintf(text, sizeof text, v >= 100 ? "%.0f" : "%.3g", v);
  return text;
}

// "95%", "95.5%", "100%".
std::string percent(double share) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g%%", 100 * share);
  return text;
}

// An SLO bound as the workload wrote it: "500", "42.5".
std::string bound_text(double ms) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", ms);
  return text;
}

class CapacitySearch {
 public:
  CapacitySearch(const CapacitySearchSettings& s, const ProbeFunction& probe)
      : s_(s), probe_(probe), users_(s.mode == LoadMode::kClosed) {
    r_.field = users_ ? "load.concurrency" : "load.rate";
    r_.unit = users_ ? "users" : "req/s";
    r_.goodput_share = s.spec.goodput_share;
    r_.requests_per_probe = s.spec.requests_per_probe;
    r_.precision = s.spec.fixed() ? 0 : s.spec.precision;
  }

  RepetitionResult run(int repetition_index) {
    if (s_.spec.fixed()) {
      probe_fixed_loads();
    } else {
      bisect();
    }
    // The probes' own times: wall time for a real target, virtual time for a simulated one.
    for (const SearchProbeRecord& p : r_.probes) r_.seconds += p.seconds;
    return finish(repetition_index);
  }

 private:
  std::string load_text(double load) const { return figure(load) + " " + r_.unit; }

  int probes_at(double load) const {
    return int(std::count_if(r_.probes.begin(), r_.probes.end(),
                             [load](const SearchProbeRecord& p) { return p.load == load; }));
  }

  // Runs one probe; false when the search must end here (stopped, or every request failed).
  bool probe(double load, const char* role) {
    if (s_.stop && s_.stop->load()) return end("incomplete");
    const int index = int(r_.probes.size());
    const uint64_t seed = s_.seed + uint64_t(probes_at(load));
    ProbeRun run = probe_(load, seed, index);
    SearchProbeRecord& p = r_.probes.emplace_back();
    p.index = index;
    p.load = load;
    p.role = role;
    p.seed = seed;
    p.slo_ratio = run.figures.slo_ratio;
    p.summary = run.figures.summary;
    p.meets = p.summary.num_requests > 0 && p.summary.good_fraction >= r_.goodput_share - 1e-12;
    p.seconds = run.figures.seconds;
    const bool incomplete = run.repetition.incomplete;
    repetitions_.push_back(std::move(run.repetition));
    ratios_.push_back(std::move(run.figures.slo_ratios));
    log_probe(p);
    if (incomplete) return end("incomplete");
    if (p.summary.num_requests > 0 && p.summary.num_completed == 0) {
      r_.verdict = "probe " + std::to_string(index) + " at " + load_text(load) +
                   ": every request failed (" + describe_errors(repetitions_.back().errors) +
                   "): the target is broken, not loaded; no capacity";
      return end("probe_failed");
    }
    return true;
  }

  static std::string describe_errors(const std::vector<ErrorClass>& errors) {
    if (errors.empty()) return "no error recorded";
    return errors.front().name + ": " + std::to_string(errors.front().count) +
           "; first: " + errors.front().first_message.substr(0, 200);
  }

  bool end(const char* status) {
    r_.status = status;
    return false;
  }

  void log_probe(const SearchProbeRecord& p) const {
    if (!s_.log) return;
    *s_.log << "search: probe " << p.index << " (" << p.role << ") at " << load_text(p.load) << ": "
            << percent(p.summary.good_fraction) << " met the SLO, SLO ratio "
            << (p.slo_ratio ? figure(*p.slo_ratio) : std::string("n/a (too many failed)"))
            << ", TTFT P99 " << figure(p.summary.ttft_ms.p99) << " ms -> "
            << (p.meets ? "holds" : "misses") << "\n";
  }

  bool converged(double low, double high) const {
    if (users_ && high - low <= 1) return true;
    return high / low - 1 <= s_.spec.precision;
  }

  double midpoint(double low, double high) const {
    return users_ ? std::floor((low + high) / 2) : std::sqrt(low * high);
  }

  bool out_of_probes() const { return int(r_.probes.size()) >= s_.spec.max_probes; }

  void bisect() {
    const CapacitySearchSpec& spec = s_.spec;
    if (!probe(spec.from, "from")) return;
    if (!r_.probes.back().meets) return void(end("below_range"));
    if (!probe(spec.to, "to")) return;
    if (r_.probes.back().meets) return void(end("not_bracketed"));
    while (true) {
      const LoadBracket b = bracket_of(pooled_by_load(r_.probes, ratios_, r_.goodput_share));
      if (!b.high) return void(end("not_bracketed"));  // a re-probe of `to` held
      if (!b.low) return void(end("below_range"));     // a re-probe of `from` missed
      if (converged(*b.low, *b.high)) {
        // Both ends once more, with other arrivals: a probe that held or missed by luck moves
        // the pooled verdict, and the bisection goes on from the corrected bracket.
        const double end_to_check = probes_at(*b.low) < 2 ? *b.low : *b.high;
        if (probes_at(end_to_check) >= 2 || out_of_probes()) return void(end("found"));
        if (!probe(end_to_check, "reprobe")) return;
        continue;
      }
      if (out_of_probes()) return void(end("max_probes"));
      if (!probe(midpoint(*b.low, *b.high), "bisect")) return;
    }
  }

  void probe_fixed_loads() {
    for (double load : s_.spec.at) {
      if (!probe(load, "fixed")) return;
    }
    r_.status = "fixed";
  }

  // The probe the summary is of: the last one at `load`.
  int64_t last_probe_at(double load) const {
    for (size_t i = r_.probes.size(); i-- > 0;) {
      if (r_.probes[i].load == load) return int64_t(i);
    }
    return int64_t(r_.probes.size()) - 1;
  }

  void place_capacity(const std::vector<LoadVerdict>& loads) {
    const LoadBracket b = bracket_of(loads);
    const auto at = [&loads](double load) {
      return *std::find_if(loads.begin(), loads.end(),
                           [load](const LoadVerdict& v) { return v.load == load; });
    };
    const std::string& st = r_.status;
    if ((st == "found" || st == "max_probes") && b.low && b.high) {
      r_.low = b.low, r_.high = b.high;
      r_.capacity = capacity_between(at(*b.low), at(*b.high), users_);
    } else if (st == "below_range") {
      r_.capacity = 0, r_.low = 0, r_.high = loads.front().load;
    } else if (st == "not_bracketed") {
      r_.low = loads.back().load;
    } else if (st == "fixed") {
      r_.low = b.low, r_.high = b.high;
      r_.capacity = capacity_from_fixed_loads(loads, users_);
    }
    if (!b.monotonic && b.high) {
      note_ = "; not monotonic: a load above " + load_text(*b.high) +
              " held, the bracket ends at the lowest load that missed";
    }
  }

  std::string slo_text() const { return describe_slo_target(s_.slo, r_.goodput_share); }

  std::string bracket_text() const {
    return "bracket [" + figure(r_.low.value_or(0)) + ", " + figure(r_.high.value_or(0)) + "]";
  }

  std::string found_text() const {
    std::string v = "capacity " + load_text(*r_.capacity) + " at the SLO (" + slo_text() + "), " +
                    bracket_text() + ", " + std::to_string(r_.probes.size()) + " probes in " +
                    figure(r_.seconds) + " s";
    if (r_.status == "max_probes") {
      v += "; wider than the precision asked (" + percent(r_.precision) +
           "): load.search.max_probes ran out";
    }
    return v;
  }

  void write_verdict(const std::vector<LoadVerdict>& loads) {
    const std::string& st = r_.status;
    if (st == "found" || st == "max_probes") {
      r_.verdict = found_text();
    } else if (st == "below_range") {
      const LoadVerdict& lowest = loads.front();
      r_.verdict = "capacity 0: the SLO (" + slo_text() +
                   ") is not met at the lowest load searched (" + load_text(lowest.load) + ": " +
                   percent(lowest.good_fraction) + " met it)";
      if (users_ && lowest.load == 1)
        r_.verdict += "; one user at a time misses it: no load can meet it";
    } else if (st == "not_bracketed") {
      r_.verdict = "the search range does not bracket the capacity: the SLO (" + slo_text() +
                   ") held at the highest load searched (" + load_text(loads.back().load) + ": " +
                   percent(loads.back().good_fraction) +
                   " met it); the capacity is above it: raise load.search.to";
    } else if (st == "fixed") {
      r_.verdict = r_.capacity ? "capacity " + load_text(*r_.capacity) + " at the SLO (" +
                                     slo_text() + "), placed from the loads given (load.search.at)"
                               : "no capacity: the SLO ratio at the loads given (load.search.at) "
                                 "does not reach 1 within 1.5x of them";
    } else if (st == "incomplete") {
      r_.verdict = "stopped after " + std::to_string(r_.probes.size()) + " probes: no capacity";
    }
    r_.verdict += note_;
  }

  RepetitionResult finish(int repetition_index) {
    const std::vector<LoadVerdict> loads = pooled_by_load(r_.probes, ratios_, r_.goodput_share);
    if (!loads.empty() && r_.status != "probe_failed" && r_.status != "incomplete") {
      place_capacity(loads);
    }
    r_.cliffs = find_cliffs(loads, s_.spec.cliff_factor);
    write_verdict(loads);
    if (r_.probes.empty()) {  // stopped before the first probe
      RepetitionResult none;
      none.index = repetition_index;
      none.incomplete = true;
      none.search = r_;
      return none;
    }
    const double summary_load = r_.low && *r_.low > 0        ? *r_.low
                                : r_.status == "below_range" ? loads.front().load
                                                             : r_.probes.back().load;
    r_.summary_probe = last_probe_at(summary_load);
    RepetitionResult rep = std::move(repetitions_[size_t(*r_.summary_probe)]);
    rep.index = repetition_index;
    rep.incomplete = r_.status == "incomplete";
    const auto optional = [](const std::optional<double>& v) {
      return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
    };
    rep.summary["capacity_at_slo"] = optional(r_.capacity);
    rep.summary["capacity_at_slo_low"] = optional(r_.low);
    rep.summary["capacity_at_slo_high"] = optional(r_.high);
    rep.search = r_;
    return rep;
  }

  const CapacitySearchSettings& s_;
  const ProbeFunction& probe_;
  const bool users_;
  SearchRecord r_;
  std::vector<RepetitionResult> repetitions_;  // one per probe, index-aligned
  std::vector<std::vector<double>> ratios_;    // each probe's requests' SLO ratios
  std::string note_;
};

}  // namespace

void print_search_verdict(std::ostream& out, const SearchRecord& search) {
  out << "search: " << search.verdict << "\n";
  for (const SearchCliffRecord& c : search.cliffs) {
    out << "search: cliff: TTFT P99 " << figure(c.from_ttft_p99_ms) << " ms at "
        << figure(c.from_load) << " " << search.unit << " -> " << figure(c.to_ttft_p99_ms)
        << " ms at " << figure(c.to_load) << " " << search.unit << " (" << figure(c.factor)
        << "x)\n";
  }
}

std::string describe_slo_target(const SloSpec& slo, double goodput_share) {
  std::string out;
  const auto add = [&out](const char* name, const std::optional<double>& bound) {
    if (!bound) return;
    out += std::string(out.empty() ? "" : ", ") + name + " <= " + bound_text(*bound) + " ms";
  };
  add("TTFT", slo.ttft_ms);
  add("TPOT", slo.tpot_ms);
  add("E2E", slo.e2e_ms);
  return out + " for " + percent(goodput_share) + " of requests";
}

RepetitionResult run_capacity_search(const CapacitySearchSettings& settings,
                                     const ProbeFunction& probe, int repetition_index) {
  return CapacitySearch(settings, probe).run(repetition_index);
}

}  // namespace infergate
