#include "common/results/parallel_record.h"

namespace infergate {

namespace {

nlohmann::json scope_json(const CommScopeRecord& scope) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [op, s] : scope) {
    j[op] = {{"calls", s.calls}, {"bytes", s.bytes}, {"seconds", s.seconds}};
  }
  return j;
}

CommScopeRecord read_scope(const SectionReader& r) {
  CommScopeRecord scope;
  for (const auto& [op, v] : r.members()) {
    scope[op] = {v.integer("calls"), v.integer("bytes"), v.number("seconds")};
  }
  return scope;
}

nlohmann::json pipeline_json(const ParallelRecord::Pipeline& p) {
  nlohmann::json stages = nlohmann::json::array();
  for (const ParallelRecord::Stage& s : p.stages) {
    stages.push_back({{"stage", s.stage},
                      {"busy_s", s.busy_s},
                      {"step_s", s.step_s},
                      {"bubble_fraction", s.bubble_fraction}});
  }
  return {{"stages", stages}, {"bubble_fraction", p.bubble_fraction}};
}

ParallelRecord::Pipeline read_pipeline(const SectionReader& r) {
  ParallelRecord::Pipeline p;
  for (const SectionReader& s : r.array("stages")) {
    p.stages.push_back(
        {s.integer("stage"), s.number("busy_s"), s.number("step_s"), s.number("bubble_fraction")});
  }
  p.bubble_fraction = r.number("bubble_fraction");
  return p;
}

ParallelRecord::Experts read_experts(const SectionReader& r) {
  ParallelRecord::Experts e;
  for (const SectionReader& n : r.array("tokens_per_rank"))
    e.tokens_per_rank.push_back(n.as_integer());
  e.max_over_mean = r.number("max_over_mean");
  e.min_over_mean = r.number("min_over_mean");
  return e;
}

void add_simulated(nlohmann::json& j, const ParallelRecord::Simulated& s) {
  j["simulated"] = true;
  j["step_ms"] = s.step_ms;
  j["compute_ms"] = s.compute_ms;
  j["communication_ms"] = s.communication_ms;
  j["overhead_ms"] = s.overhead_ms;
  j["operator_ms"] = s.operator_ms;
}

ParallelRecord::Simulated read_simulated(const SectionReader& r) {
  ParallelRecord::Simulated s{r.number("step_ms"),
                              r.number("compute_ms"),
                              r.number("communication_ms"),
                              r.number("overhead_ms"),
                              {}};
  for (const auto& [op, v] : r.object("operator_ms").members()) s.operator_ms[op] = v.as_number();
  return s;
}

}  // namespace

nlohmann::json to_json(const ParallelRecord& p) {
  nlohmann::json j = {{"tensor_parallel", p.tensor_parallel},
                      {"pipeline_parallel", p.pipeline_parallel},
                      {"expert_parallel", p.expert_parallel},
                      {"micro_batches", p.micro_batches},
                      {"steps", p.steps}};
  if (p.ranks) {
    j["world_size"] = p.ranks->world_size;
    j["group_size"] = p.ranks->group_size;
    j["comm"] = {{"world", scope_json(p.ranks->world)}, {"group", scope_json(p.ranks->group)}};
  }
  if (p.pipeline) j["pipeline"] = pipeline_json(*p.pipeline);
  if (const auto& e = p.experts) {
    j["experts"] = {{"tokens_per_rank", e->tokens_per_rank},
                    {"max_over_mean", e->max_over_mean},
                    {"min_over_mean", e->min_over_mean}};
  }
  if (p.simulated) add_simulated(j, *p.simulated);
  if (!p.role.empty()) j["role"] = p.role;
  if (!p.workers.empty()) {
    j["workers"] = nlohmann::json::array();
    for (const ParallelRecord& w : p.workers) j["workers"].push_back(to_json(w));
  }
  return j;
}

ParallelRecord read_parallel_record(const SectionReader& r) {
  r.expect_object();
  ParallelRecord p;
  p.tensor_parallel = r.integer("tensor_parallel");
  p.pipeline_parallel = r.integer("pipeline_parallel");
  p.expert_parallel = r.integer("expert_parallel");
  p.micro_batches = r.integer("micro_batches");
  p.steps = r.integer("steps");
  if (r.has("comm")) {
    const SectionReader comm = r.object("comm");
    p.ranks =
        ParallelRecord::Ranks{r.integer("world_size"), r.integer("group_size"),
                              read_scope(comm.object("world")), read_scope(comm.object("group"))};
  }
  if (r.has("pipeline")) p.pipeline = read_pipeline(r.object("pipeline"));
  if (r.has("experts")) p.experts = read_experts(r.object("experts"));
  if (r.flag_or("simulated", false)) p.simulated = read_simulated(r);
  p.role = r.text_or("role", "");
  if (r.has("workers")) {
    for (const SectionReader& w : r.array("workers")) p.workers.push_back(read_parallel_record(w));
  }
  return p;
}

}  // namespace infergate
