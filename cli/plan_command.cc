#include "cli/plan_command.h"

#include <boost/program_options.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "common/io/json_file.h"
#include "sim/plan/deployment_planner.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

void print_plan(const Plan& plan, const PlanRequest& r) {
  std::printf("%s on %d x %s, workload %s\n\n", r.model.c_str(), r.gpus, r.hardware.c_str(),
              r.workload.c_str());
  std::printf("%-4s %-34s %10s %9s %11s %11s %11s %11s %10s %10s\n", "rank", "layout", "goodput/s",
              "req/s", "TTFT p50", "TTFT p95", "TPOT p50", "TPOT p95", "KV GB/dev",
              r.price_per_gpu_hour > 0 ? "$/M tok" : "");
  int rank = 0;
  for (const PlanCandidate& c : plan.ranked) {
    std::printf("%-4d %-34s %10.2f %9.2f %9.1fms %9.1fms %9.2fms %9.2fms %10.1f", ++rank,
                c.label().c_str(), c.goodput_rps, c.request_rps, c.ttft_p50_ms, c.ttft_p95_ms,
                c.tpot_p50_ms, c.tpot_p95_ms, c.memory.kv_bytes / 1e9);
    if (r.price_per_gpu_hour > 0) std::printf(" %10.3f", c.cost_per_million_tokens);
    std::printf("\n");
  }
  if (plan.ranked.empty()) std::printf("(no layout fits)\n");
  std::printf("\nrejected:\n");
  for (const PlanCandidate& c : plan.rejected) {
    std::printf("  %-34s %s\n", c.label().c_str(), c.rejected.c_str());
  }
  for (const std::string& n : plan.notes) std::printf("note: %s\n", n.c_str());
}

nlohmann::json candidate_json(const PlanCandidate& c) {
  nlohmann::json j = {{"layout", c.label()},
                      {"tensor_parallel", c.tensor_parallel},
                      {"pipeline_parallel", c.pipeline_parallel},
                      {"expert_parallel", c.expert_parallel},
                      {"data_parallel", c.data_parallel},
                      {"prefill_replicas", c.prefill_replicas},
                      {"weight_dtype", c.weight_dtype},
                      {"kv_dtype", c.kv_dtype},
                      {"weights_gb_per_device", c.memory.weights_bytes / 1e9},
                      {"kv_gb_per_device", c.memory.kv_bytes / 1e9}};
  if (!c.rejected.empty()) {
    j["rejected"] = c.rejected;
    return j;
  }
  j.update({{"goodput_rps", c.goodput_rps},
            {"request_rps", c.request_rps},
            {"output_tps", c.output_tps},
            {"ttft_p50_ms", c.ttft_p50_ms},
            {"ttft_p95_ms", c.ttft_p95_ms},
            {"tpot_p50_ms", c.tpot_p50_ms},
            {"tpot_p95_ms", c.tpot_p95_ms},
            {"cost_per_million_tokens", c.cost_per_million_tokens},
            {"results", c.results_path}});
  return j;
}

}  // namespace

int plan_command(int argc, char** argv) {
  PlanRequest r;
  std::string json_out;
  po::options_description desc(
      "infergate plan --model M --hardware H --gpus N --workload W [options]\n"
      "Every layout of M on N devices of H (tensor, pipeline, expert and data parallelism,\n"
      "prefill:decode splits; weight and KV formats) that fits one device's memory, simulated on\n"
      "W and ranked by goodput at W's SLO, then cost; the rejected ones with their reasons");
  desc.add_options()("help,h", "show this help")(
      "model", po::value(&r.model)->required(),
      "a model shape (infergate sim list), a preset or a config.json")(
      "hardware", po::value(&r.hardware)->required(), "a hardware file (infergate sim list)")(
      "gpus", po::value(&r.gpus)->required(), "devices to lay the model out on")(
      "workload", po::value(&r.workload)->required(),
      "the workload (its dataset, load and SLO; no sweep)")(
      "set", po::value(&r.overrides)->multitoken(),
      "override the workload (path=value), e.g. slo.ttft_ms=500")(
      "calibration", po::value(&r.calibration)->default_value(""),
      "a calibration file (default: the hardware's documented defaults)")(
      "weight-dtype", po::value(&r.weight_dtypes)->multitoken(),
      "weight formats to try (default: the model's, fp8 and w8a8 where the device has them, q4_0)")(
      "kv-dtype", po::value(&r.kv_dtypes)->multitoken(),
      "KV formats to try (default: 16-bit and fp8_e4m3)")(
      "memory-utilization", po::value(&r.memory_utilization)->default_value(0.9),
      "fraction of each device's memory the engine may use")(
      "price-per-gpu-hour", po::value(&r.price_per_gpu_hour)->default_value(0),
      "adds the cost per million output tokens")("out-dir",
                                                 po::value(&r.out_dir)->default_value("out/plan"),
                                                 "each simulated layout's results file")(
      "json", po::value(&json_out)->default_value(""), "also write the plan as JSON");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  if (!json_out.empty()) check_writable(json_out);
  const Plan plan = plan_deployment(r);
  print_plan(plan, r);
  if (!json_out.empty()) {
    nlohmann::json j = {{"schema", "infergate.plan/v1"}, {"model", r.model},
                        {"hardware", r.hardware},        {"gpus", r.gpus},
                        {"workload", r.workload},        {"notes", plan.notes}};
    j["ranked"] = nlohmann::json::array();
    j["rejected"] = nlohmann::json::array();
    for (const PlanCandidate& c : plan.ranked) j["ranked"].push_back(candidate_json(c));
    for (const PlanCandidate& c : plan.rejected) j["rejected"].push_back(candidate_json(c));
    write_json_atomically(j, json_out);
  }
  if (!plan.ranked.empty()) return 0;
  // Exit 1 (docs/simulator.md) tells "nothing fits" apart from bad input, which exits 2.
  std::cerr << "infergate plan: no layout fits; each layout's reason is listed under rejected\n";
  return 1;
}

}  // namespace infergate
