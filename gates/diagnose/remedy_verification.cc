#include "gates/diagnose/remedy_verification.h"

#include <chrono>
#include <cmath>
#include <filesystem>
#include <sstream>

#include "common/report/metric_format.h"
#include "gates/ab/ab_design.h"
#include "gates/ab/ab_session.h"
#include "gates/process/interrupt.h"

namespace infergate {

namespace {

RuleSet remedy_rules(const Remedy& r) {
  RuleSet rules;
  rules.source = "infergate diagnose --verify";
  rules.alpha = kRemedyAlpha;
  rules.confidence = 0.95;
  GateRule rule;
  rule.name = "remedy";
  rule.description = r.name + " improves " + r.metric;
  rule.metric = parse_metric_key(r.metric);
  rule.better = r.better;
  rule.relative_threshold = kRemedyThreshold;
  rule.min_repetitions = 2;
  rules.rules.push_back(rule);
  return rules;
}

std::string ratio_text(const RemedyCheck& c, const Remedy& r) {
  std::ostringstream s;
  s << r.metric << " x" << format_number(c.ratio, 3) << " [" << format_number(c.ratio_lo, 3) << ", "
    << format_number(c.ratio_hi, 3) << "] (candidate / baseline, 95% interval) over " << c.pairs
    << " pairs";
  return s.str();
}

// The verdict of the paired rule turned into what it says about the advice.
void judge(const RuleEvaluation& e, const Remedy& r, RemedyCheck& c) {
  c.ratio = 1 + e.relative_change;
  c.ratio_lo = 1 + e.interval_lo;
  c.ratio_hi = 1 + e.interval_hi;
  const bool lower = r.better == Direction::kLowerIsBetter;
  // The interval's best and worst ends, as relative changes in the better direction.
  const double best = lower ? -e.interval_lo : e.interval_hi;
  const double worst = lower ? -e.interval_hi : e.interval_lo;
  if (e.verdict == Verdict::kImproved) {
    c.outcome = "confirmed";
  } else if (e.verdict == Verdict::kRegressed || (std::isfinite(best) && best < 0)) {
    c.outcome = "worse";
  } else if (std::isfinite(best) && best < kRemedyThreshold && worst > -kRemedyThreshold) {
    c.outcome = "refuted";
  } else {
    c.outcome = "inconclusive";
  }
  if (!std::isfinite(e.relative_change)) {
    c.reason = e.reason;
    return;
  }
  const std::string what = c.outcome == "confirmed" ? "advice confirmed, improved beyond 5%"
                           : c.outcome == "worse"   ? "the remedy made it worse"
                           : c.outcome == "refuted"
                               ? "advice refuted, no change beyond 5% either way"
                               : "no decision yet";
  c.reason = what + ": " + ratio_text(c, r) + "; " + e.reason;
}

RemedyCheck run_remedy(const Remedy& r, const std::string& point, const VerifySettings& s,
                       const std::string& dir, double budget_s, int max_pairs) {
  AbSettings ab;
  ab.workload_path = s.workload_path;
  ab.baseline.binary = ab.candidate.binary = s.binary;
  ab.candidate.sets = r.sets;
  ab.design.budget_seconds = budget_s;
  ab.design.max_pairs = max_pairs;
  ab.out_dir = dir;
  ab.compare.allow_env_diff = true;
  ab.record_requests = false;  // the judgement reads summaries; records can pass the input limit
  ab.progress = s.progress;
  RemedyCheck c;
  c.out_dir = dir;
  c.ratio = c.ratio_lo = c.ratio_hi = NAN;
  const AbOutcome o = run_ab(ab, remedy_rules(r));
  c.pairs = o.pairs;
  c.seconds = o.seconds;
  if (!o.failed_requests.empty()) {
    c.outcome = "failed";
    c.reason = "requests failed beyond the error-share limit: " + o.failed_requests[0];
    return c;
  }
  for (const RuleEvaluation& e : o.comparison.evaluations) {
    if (e.point == point) judge(e, r, c);
  }
  if (c.outcome.empty()) {
    c.outcome = "inconclusive";
    c.reason = o.comparison.headline();
  }
  return c;
}

RemedyCheck not_run(std::string reason) {
  RemedyCheck c;
  c.outcome = "not run";
  c.reason = std::move(reason);
  c.ratio = c.ratio_lo = c.ratio_hi = NAN;
  return c;
}

}  // namespace

void verify_remedies(Diagnosis& d, const VerifySettings& s) {
  std::vector<std::pair<Finding*, Remedy*>> todo;
  for (Finding& f : d.findings) {
    for (Remedy& r : f.remedies) {
      if (r.sets.empty()) {
        r.check = not_run("not a workload override: run it by hand");
      } else if (s.max_remedies > 0 && int(todo.size()) >= s.max_remedies) {
        r.check = not_run("past --remedies " + std::to_string(s.max_remedies));
      } else {
        todo.emplace_back(&f, &r);
      }
    }
  }
  const auto start = std::chrono::steady_clock::now();
  double seconds_per_pair = 2 * s.seconds_per_run_guess;
  for (size_t i = 0; i < todo.size(); ++i) {
    auto [f, r] = todo[i];
    const int needed = first_look(AbDesign{}, remedy_rules(*r), d.workload_name);
    const double spent =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    // Rank order: each remedy gets an equal share of what is left, but at least its first look
    // when what is left holds it, so the dominant symptom's best remedy is never starved.
    const double left = s.budget_seconds - spent;
    const double first_look_s = needed * seconds_per_pair;
    const double share = std::max(left / double(todo.size() - i), 1.2 * first_look_s);
    if (first_look_s > left) {
      r->check = not_run("does not fit: the paired test needs " + std::to_string(needed) +
                         " pairs of about " + format_number(seconds_per_pair, 2) +
                         " s, more than the budget left (" + format_number(std::max(0.0, left), 2) +
                         " s); give a larger --budget");
      continue;
    }
    // The pairs are bounded by the share of time, judged on the pairs' measured time: a cap on
    // their count from the guess would let one slow first run (a neighbour, a cold cache) stop
    // the test at its first look, where one disturbed pair leaves it undecided (CI at stop 57).
    const int max_pairs = std::max(needed, AbDesign{}.max_pairs);
    const std::string dir =
        (std::filesystem::path(s.out_dir) / (f->rule + "-" + std::to_string(i + 1))).string();
    if (s.progress)
      s.progress("verifying " + r->name + " (" + remedy_overrides(*r) + ") in " + dir);
    try {
      r->check = run_remedy(*r, f->point, s, dir, std::min(share, left), max_pairs);
      if (r->check->pairs > 0) seconds_per_pair = r->check->seconds / r->check->pairs;
    } catch (const Interrupted&) {
      throw;
    } catch (const std::exception& e) {
      r->check = not_run(e.what());
      r->check->outcome = "failed";
    }
  }
}

}  // namespace infergate
