#include "gates/verdict/verdict_decision.h"

#include <sstream>

namespace infergate {

std::string signed_percent(double fraction) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(1);
  s << (fraction >= 0 ? "+" : "") << fraction * 100 << "%";
  return s.str();
}

void decide_verdict(RuleEvaluation& e, double p_better, double alpha, const std::string& more) {
  const bool lower = e.rule.better == Direction::kLowerIsBetter;
  // Worse-direction change and interval: positive means worse.
  const double worse = lower ? e.relative_change : -e.relative_change;
  const double worse_hi = lower ? e.interval_hi : -e.interval_lo;
  const double worse_lo = lower ? e.interval_lo : -e.interval_hi;
  const double t = e.effective_threshold;
  const std::string threshold = signed_percent(t).substr(1);
  const std::string interval =
      "[" + signed_percent(e.interval_lo) + ", " + signed_percent(e.interval_hi) + "]";
  std::ostringstream why;
  why.precision(3);
  if (worse > t && e.p_value < alpha && worse_lo > 0) {
    e.verdict = Verdict::kRegressed;
    why << signed_percent(e.relative_change) << " is beyond the " << threshold
        << " threshold and significant (p = " << e.p_value << ", interval " << interval << ")";
  } else if (-worse > t && p_better < alpha && worse_hi < 0) {
    e.verdict = Verdict::kImproved;
    why << signed_percent(e.relative_change)
        << " is better beyond the threshold and significant (p = " << p_better << ")";
  } else if (worse_hi <= t) {
    e.verdict = Verdict::kPass;
    why << "the interval " << interval << " rules out a change worse than " << threshold;
  } else {
    e.verdict = Verdict::kInconclusive;
    why << "the interval " << interval << " reaches past the " << threshold
        << " threshold but the change is not shown (p = " << e.p_value << "); more " << more
        << " would decide";
  }
  e.reason = why.str();
}

}  // namespace infergate
