#include "gates/calibrate/paired_calibration.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <iostream>
#include <set>

#include "common/io/json_file.h"
#include "common/results/metric_key.h"
#include "common/stats/paired_ratio.h"
#include "gates/ab/capacity_probes.h"
#include "gates/ab/workload_process.h"
#include "gates/auto_repeat/auto_repeat.h"
#include "gates/baseline/baseline_store.h"
#include "gates/calibrate/calibration.h"
#include "gates/calibrate/paired_rates.h"
#include "gates/process/interrupt.h"
#include "gates/verdict/verdict.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;

struct Arm {
  std::string name;  // "a", "a2", "slowed-10"
  double slowdown = 0;
  ResultsFile runs;
};

// "slowed-0.05": the slowdown as written, so --from can read it back from the file name.
std::string arm_name(double slowdown) {
  char name[32];
  std::snprintf(name, sizeof name, "slowed-%g", slowdown);
  return name;
}

std::string self() { return fs::read_symlink("/proc/self/exe").string(); }

// Rounds of one run per arm, the order rotated each round so no arm always runs first; the
// slowed arms' delay is a fraction of the first A run's mean step time.
double run_rounds(const PairedCalibrationArguments& args, std::vector<Arm>& arms,
                  const std::string& dir) {
  std::vector<std::vector<std::string>> sets(arms.size(), args.sets);
  // A capacity search probes fixed loads around the first search's capacity, as ab does.
  if (args.capacity_search) {
    AbSettings search;
    search.workload_path = args.workload;
    search.sets = args.sets;
    search.baseline.binary = self();
    search.out_dir = dir;
    const CapacityProbePlan plan = plan_capacity_probes(search, 0);
    std::printf("%s\n", plan.description.c_str());
    for (std::vector<std::string>& arm_sets : sets) arm_sets.push_back(plan.search_set);
  }
  double seconds = 0;
  int runs = 0;
  for (int round = 0; round < args.rounds; ++round) {
    for (size_t k = 0; k < arms.size(); ++k) {
      const size_t i = (k + size_t(round)) % arms.size();
      const std::string stem = dir + "/runs/" + arms[i].name + "-" + std::to_string(round);
      WorkloadRun run = run_workload_process(self(), args.workload, sets[i], stem);
      seconds += run.seconds;
      ++runs;
      if (arms[i].runs.points.empty()) {
        arms[i].runs = std::move(run.results);
      } else {
        append_repetitions_from(arms[i].runs, run.results);
      }
      if (round == 0 && i == 0) {  // the first run sets the injected delays
        for (size_t j = 2; j < arms.size(); ++j) {
          const int64_t delay = slowdown_delay_us(arms[0].runs, arms[j].slowdown);
          sets[j].push_back("target.engine.debug.inject_decode_delay_us=" + std::to_string(delay));
          std::printf("%s: %lld us per decoding step (%.1f%% of the first run's mean step)\n",
                      arms[j].name.c_str(), static_cast<long long>(delay), 100 * arms[j].slowdown);
        }
      }
    }
    for (const Arm& arm : arms)
      write_json_atomically(results_to_json(arm.runs), dir + "/" + arm.name + ".json");
    write_json_atomically({{"seconds_per_run", seconds / runs}}, dir + "/timing.json");
    std::fprintf(stderr, "round %d of %d done (%.0f s)\n", round + 1, args.rounds, seconds);
  }
  return seconds / runs;
}

std::vector<Arm> load_arms(const std::string& dir, const std::vector<double>& slowdowns) {
  std::vector<Arm> arms = {{"a", 0, load_results(dir + "/a.json")},
                           {"a2", 0, load_results(dir + "/a2.json")}};
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().stem().string();
    if (name.rfind("slowed-", 0) != 0 || entry.path().extension() != ".json") continue;
    const double f = std::stod(name.substr(7));
    if (slowdowns.empty() || std::count(slowdowns.begin(), slowdowns.end(), f)) {
      arms.push_back({name, f, load_results(entry.path().string())});
    }
  }
  std::sort(arms.begin() + 2, arms.end(),
            [](const Arm& x, const Arm& y) { return x.slowdown < y.slowdown; });
  return arms;
}

void print_counts(const std::string& title, const SequentialRates& r, double seconds_per_pair) {
  std::printf("%s (mean %.1f pairs, %.1f min)\n  %-20s %8s %8s %10s %8s %13s\n", title.c_str(),
              r.mean_pairs, r.mean_pairs * seconds_per_pair / 60, "rule", "trials", "pass",
              "regressed", "improved", "inconclusive");
  for (const VerdictCounts& c : r.counts) {
    std::printf("  %-20s %8d %8d %10d %8d %13d\n", c.rule.c_str(), c.trials, c.pass, c.regressed,
                c.improved, c.inconclusive);
  }
}

// What a slowed arm really did to each gated metric: the paired change over all its pairs
// (an injected delay is a nominal fraction of a step; what the metrics see can differ).
nlohmann::json measured_effects(const Arm& base, const Arm& slowed,
                                const std::vector<std::string>& keys) {
  nlohmann::json effects = nlohmann::json::object();
  std::printf("%s, measured over all pairs:", slowed.name.c_str());
  for (const std::string& text : keys) {
    const MetricKey key = parse_metric_key(text);
    std::vector<double> a, b;
    const auto& ra = base.runs.points[0].repetitions;
    const auto& rb = slowed.runs.points[0].repetitions;
    for (size_t i = 0; i < std::min(ra.size(), rb.size()); ++i) {
      const auto x = metric_value(ra[i].summary, key), y = metric_value(rb[i].summary, key);
      if (x && y && *x > 0 && *y > 0) a.push_back(*x), b.push_back(*y);
    }
    if (a.size() < 2) continue;
    const PairedRatio r = paired_ratio(a, b, 0.95);
    effects[text] = r.estimate;
    std::printf("  %s %+.1f%%", text.substr(text.find('.') + 1).c_str(), 100 * r.estimate);
  }
  std::printf("\n");
  return effects;
}

// What a slowed arm did, as power claims must say it: "slowed-0.05 (measured: tpot_ms.p50
// +7.1%, ...)". The injected fraction is only the arm's name.
std::string measured_label(const Arm& arm, const nlohmann::json& effects) {
  return arm.name + " (measured: " + format_measured_change(effects) + ")";
}

double share(const VerdictCounts& c, int n) { return c.trials ? 100.0 * n / c.trials : 0; }

// Detection and false alarms of the whole gate as the budget grows.
void print_power_curve(const std::vector<Arm>& arms, const std::vector<nlohmann::json>& effects,
                       const RuleSet& rules, SequentialPlan plan, const std::string& workload) {
  const int n = int(arms[0].runs.points[0].repetitions.size());
  const int look = first_look(plan.design, rules, workload);
  std::set<int> budgets;
  for (int b : {look, look + 4, look + 8, 16, 24, 32, 48, 64}) {
    if (b >= look && b <= n) budgets.insert(b - b % 2);
  }
  std::printf("power curve (the gate; pairs at most, as a budget); the arms did:\n");
  for (size_t j = 2; j < arms.size(); ++j) {
    std::printf("  %s\n", measured_label(arms[j], effects[j]).c_str());
  }
  std::printf("  %-10s %-8s %-22s", "pairs", "minutes", "A/A pass/regr/inconcl");
  for (size_t j = 2; j < arms.size(); ++j) std::printf(" %-9s", (arms[j].name + " caught").c_str());
  std::printf("\n");
  for (int b : budgets) {
    plan.design.max_pairs = b;
    plan.design.budget_seconds = 1e9;
    const VerdictCounts aa =
        sequential_paired_verdicts(arms[0].runs.points[0], arms[1].runs.points[0], rules, workload,
                                   plan)
            .counts.back();
    std::printf("  %-10d %-8.1f %5.1f%% /%5.1f%% /%5.1f%%  ", b, b * plan.seconds_per_pair / 60,
                share(aa, aa.pass), share(aa, aa.regressed), share(aa, aa.inconclusive));
    for (size_t j = 2; j < arms.size(); ++j) {
      const VerdictCounts ab =
          sequential_paired_verdicts(arms[0].runs.points[0], arms[j].runs.points[0], rules,
                                     workload, plan)
              .counts.back();
      std::printf(" %8.1f%%", share(ab, ab.regressed));
    }
    std::printf("\n");
  }
}

}  // namespace

int calibrate_paired(const PairedCalibrationArguments& args, const RuleSet& rules) {
  const std::string dir = !args.from_dir.empty()
                              ? args.from_dir
                              : "out/calibrate-paired-" + std::to_string(::time(nullptr));
  double seconds_per_run = 0;
  std::vector<Arm> arms;
  if (args.from_dir.empty()) {
    install_interrupt_handlers();
    arms = {{"a", 0, {}}, {"a2", 0, {}}};
    for (double f : args.slowdowns) arms.push_back({arm_name(f), f, {}});
    fs::create_directories(dir + "/runs");
    std::printf("paired runs: %s\n", dir.c_str());
    seconds_per_run = run_rounds(args, arms, dir);
  } else {
    arms = load_arms(dir, args.slowdowns);
    seconds_per_run = read_json_file(dir + "/timing.json").at("seconds_per_run").get<double>();
  }
  const std::string workload = arms[0].runs.workload_name;
  const std::vector<std::string> keys = rule_metric_keys(rules, workload);
  NoiseProfile noise = measure_noise(arms[0].runs, keys);
  noise.paired = measure_paired_noise(arms[0].runs.points[0], arms[1].runs.points[0], keys);
  noise.seconds_per_pair = 2 * seconds_per_run;
  std::printf("spread over %zu rounds (%s), %.1f s a pair:\n",
              arms[0].runs.points[0].repetitions.size(), workload.c_str(), noise.seconds_per_pair);
  for (const PairedNoise& p : noise.paired) {
    const MetricNoise* m = noise.find(p.key);
    std::printf("  %-40s run-to-run cv %5.2f%%   paired (log ratio) sd %5.2f%%\n", p.key.c_str(),
                m ? 100 * m->cv : NAN, 100 * p.log_sd);
  }
  std::vector<nlohmann::json> effects(arms.size());
  for (size_t j = 2; j < arms.size(); ++j) effects[j] = measured_effects(arms[0], arms[j], keys);
  SequentialPlan plan{
      {0, args.max_pairs, args.budget_minutes * 60}, noise.seconds_per_pair, args.trials, 1};
  noise.verdict_rates = nlohmann::json::array();
  for (size_t j = 1; j < arms.size(); ++j) {
    const SequentialRates r = sequential_paired_verdicts(
        arms[0].runs.points[0], arms[j].runs.points[0], rules, workload, plan);
    const std::string what =
        j == 1 ? "paired A/A" : "paired, " + measured_label(arms[j], effects[j]);
    print_counts(
        what + ", ab's procedure within " + std::to_string(int(args.budget_minutes)) + " min", r,
        noise.seconds_per_pair);
    noise.verdict_rates.push_back({{"comparison", what},
                                   {"slowdown", arms[j].slowdown},
                                   {"measured_change", effects[j]},
                                   {"mean_pairs", r.mean_pairs},
                                   {"rules", verdict_counts_to_json(r.counts)}});
  }
  print_power_curve(arms, effects, rules, plan, workload);
  const std::string out = !args.noise_out.empty()
                              ? args.noise_out
                              : BaselineStore(args.store).noise_path(noise.machine_key, workload);
  write_json_atomically(noise_to_json(noise), out);
  std::cout << "noise: " << out << "\n";
  return kExitPass;
}

}  // namespace infergate
