#include "gates/bisect/bisect_settings.h"

namespace infergate {

nlohmann::json to_json(const BisectSettings& s) {
  return {{"repo_dir", s.repo_dir},
          {"cache_dir", s.cache_dir},
          {"good", s.good},
          {"bad", s.bad},
          {"metric", s.metric},
          {"better", to_string(s.better)},
          {"threshold", s.threshold},
          {"max_repeat_rounds", s.max_repeat_rounds},
          {"seed", s.seed},
          {"build", {{"command", s.build.command}, {"binary", s.build.binary}}},
          {"measure",
           {{"workload", s.measure.workload_path},
            {"sets", s.measure.sets},
            {"repetitions", s.measure.repetitions},
            {"reuse", s.measure.reuse},
            {"working_dir", s.measure.working_dir}}},
          {"paired", s.paired},
          {"max_pairs", s.design.max_pairs},
          {"budget_seconds", s.design.budget_seconds},
          {"pairs_dir", s.pairs_dir}};
}

BisectSettings bisect_settings_from_json(const nlohmann::json& doc) {
  BisectSettings s;
  s.repo_dir = doc.at("repo_dir").get<std::string>();
  s.cache_dir = doc.at("cache_dir").get<std::string>();
  s.good = doc.at("good").get<std::string>();
  s.bad = doc.at("bad").get<std::string>();
  s.metric = doc.at("metric").get<std::string>();
  s.better = doc.at("better").get<std::string>() == "higher" ? Direction::kHigherIsBetter
                                                             : Direction::kLowerIsBetter;
  s.threshold = doc.at("threshold").get<double>();
  s.max_repeat_rounds = doc.at("max_repeat_rounds").get<int>();
  s.seed = doc.at("seed").get<uint64_t>();
  const nlohmann::json& build = doc.at("build");
  s.build.command = build.at("command").get<std::string>();
  s.build.binary = build.at("binary").get<std::string>();
  const nlohmann::json& m = doc.at("measure");
  s.measure.workload_path = m.at("workload").get<std::string>();
  s.measure.sets = m.at("sets").get<std::vector<std::string>>();
  s.measure.repetitions = m.at("repetitions").get<int>();
  s.measure.reuse = m.at("reuse").get<bool>();
  s.measure.working_dir = m.at("working_dir").get<std::string>();
  s.paired = doc.value("paired", false);
  s.design.min_pairs = s.measure.repetitions;
  s.design.max_pairs = doc.value("max_pairs", s.design.max_pairs);
  s.design.budget_seconds = doc.value("budget_seconds", s.design.budget_seconds);
  s.pairs_dir = doc.value("pairs_dir", std::string());
  return s;
}

}  // namespace infergate
