// How `infergate ab` spends its time (docs/gates.md, "Paired A/B"): pairs of runs in ABBA order,
// judged after every second pair once there are enough of them, until the gate decides, the
// pair limit is reached, or two more pairs would overrun the time budget. The A/B session and
// calibrate's model of it both follow these functions, so what calibrate measures is what ab
// does.
#pragma once

#include <string>

#include "gates/rules/rule_set.h"
#include "gates/verdict/verdict.h"

namespace infergate {

struct AbDesign {
  int min_pairs = 0;  // pairs before the first look, at least the rules' (first_look())
  int max_pairs = 60;
  double budget_seconds = 600;
  // A regression stops the session only when this many looks in a row saw it: each look is
  // another chance of a false alarm, and a real regression stays regressed two pairs later.
  int regression_looks = 2;
};

// ABBA: the baseline runs first in even pairs and the candidate in odd ones, so an order effect
// (a warm page cache, a machine slowing down) falls on both sides alike over every two pairs.
bool candidate_runs_first(int pair_index);

// The pairs of the first look: design.min_pairs, but never fewer than a rule which can fail the
// gate for `workload` needs to decide at all (paired_rule_evaluator.h's min_pairs()); rounded up
// to even so every look sees whole ABBA blocks.
int first_look(const AbDesign& design, const RuleSet& rules, const std::string& workload);

enum class AbStop {
  kContinue,
  kDecided,   // the gate passed, regressed, or the sides are incomparable
  kMaxPairs,  // inconclusive at design.max_pairs
  kBudget,    // inconclusive, and two more pairs would end past the budget
};

// Whether a look at `pairs` pairs judged the gate at all: an even count from first_look on.
bool is_look(int pairs, int first_look);

// After a look whose gate exit code is `gate_exit` (the `regressed_in_a_row`-th look in a row to
// regress, when it regressed), `elapsed_s` into the session, with pairs taking
// `seconds_per_pair` on average. A session that stops on its limits ends with the last look's
// verdict, confirmed or not.
AbStop next_step(const AbDesign& design, int pairs, int gate_exit, int regressed_in_a_row,
                 double elapsed_s, double seconds_per_pair);

// Counts the looks in a row that regressed, for next_step().
class RegressionStreak {
 public:
  int after(int gate_exit) { return streak_ = gate_exit == kExitRegression ? streak_ + 1 : 0; }

 private:
  int streak_ = 0;
};

const char* describe(AbStop stop);

}  // namespace infergate
