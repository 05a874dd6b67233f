#include "sim/plan/deployment_planner.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"
#include "sim/calibration.h"
#include "sim/hardware_spec.h"
#include "sim/model_shape.h"
#include "sim/precision.h"
#include "sim/step_cost_model.h"

namespace infergate {

namespace {

constexpr int kMaxGpus = 1024;

std::string number(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6g", v);
  return buf;
}

std::vector<int> divisors(int n) {
  std::vector<int> out;
  for (int d = 1; d <= n; ++d) {
    if (n % d == 0) out.push_back(d);
  }
  return out;
}

std::vector<std::string> default_weight_dtypes(const HardwareSpec& h) {
  std::vector<std::string> out = {"auto"};
  if (h.has_dtype("fp8")) out.push_back("fp8");
  if (h.has_dtype("int8")) out.push_back("w8a8");
  out.push_back("q4_0");
  return out;
}

// The layout colocated, then each split of its replicas into prefill and decode workers.
void add_with_splits(std::vector<PlanCandidate>& out, PlanCandidate c) {
  out.push_back(c);
  for (int p = 1; p < c.data_parallel; ++p) {
    c.prefill_replicas = p;
    out.push_back(c);
  }
}

// Layouts of `gpus` devices: TP x PP x DP (TP within a node), and for a MoE model the same group
// as expert parallelism; with two replicas or more, every prefill:decode split of them too.
std::vector<PlanCandidate> layouts(const ModelConfig& m, const HardwareSpec& h, int gpus) {
  std::vector<PlanCandidate> out;
  for (int group : divisors(gpus)) {
    if (group > h.devices_per_node) continue;
    for (int pp : divisors(gpus / group)) {
      if (pp > 8) continue;
      PlanCandidate c;
      c.tensor_parallel = group;
      c.pipeline_parallel = pp;
      c.data_parallel = gpus / group / pp;
      add_with_splits(out, c);
      if (m.is_moe() && group > 1) {
        c.tensor_parallel = 1;
        c.expert_parallel = group;
        add_with_splits(out, c);
      }
    }
  }
  return out;
}

// The candidate's own memory check, before anything runs.
std::string memory_verdict(const PlanCandidate& c, const ModelShape& shape, const HardwareSpec& h,
                           const PlanRequest& r, DeviceMemoryPlan& memory) {
  try {
    const Precision p =
        make_precision(c.weight_dtype, shape.native_dtype, parse_dtype(c.kv_dtype), h);
    SimLayout l;
    l.tensor_parallel = c.tensor_parallel;
    l.pipeline_parallel = c.pipeline_parallel;
    l.expert_parallel = c.expert_parallel;
    const StepCostModel model(shape.config, h, Calibration{}, l, p);
    memory = plan_device_memory(shape.config, h, l, model.stage_layers(), p, 16, 2048,
                                r.memory_utilization);
    return memory.fits ? "" : memory.reason;
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

// Options no layout could use are the caller's mistake: refused up front naming the option
// (exit 2), not listed as every layout's rejection behind an exit 1 that means "nothing fits".
void check_options(const PlanRequest& r, const ModelShape& shape, const HardwareSpec& h,
                   const std::vector<std::string>& weights, const std::vector<std::string>& kvs) {
  if (!(std::isfinite(r.price_per_gpu_hour) && r.price_per_gpu_hour >= 0)) {
    throw std::invalid_argument("plan: --price-per-gpu-hour must be a finite number >= 0, got " +
                                number(r.price_per_gpu_hour));
  }
  // The formats that hold a KV cache (engine/core/engine_config_fields.cc's kv_cache_dtype).
  static const std::vector<std::string> kKvDtypes = {"f32", "f16", "bf16", "int8", "fp8_e4m3"};
  for (const std::string& kv : kvs) {
    try {
      if (std::find(kKvDtypes.begin(), kKvDtypes.end(), kv) == kKvDtypes.end()) {
        throw std::invalid_argument("not a KV format (allowed: f32, f16, bf16, int8, fp8_e4m3)");
      }
      make_precision("auto", shape.native_dtype, parse_dtype(kv), h);
    } catch (const std::exception& e) {
      throw std::invalid_argument("plan: --kv-dtype " + kv.substr(0, 40) + ": " + e.what());
    }
  }
  for (const std::string& w : weights) {
    try {
      make_precision(w, shape.native_dtype, parse_dtype(kvs.front()), h);
    } catch (const std::exception& e) {
      throw std::invalid_argument("plan: --weight-dtype " + w.substr(0, 40) + ": " + e.what());
    }
  }
  if (r.calibration.empty()) return;
  try {
    load_calibration(r.calibration);
  } catch (const std::exception& e) {
    throw std::invalid_argument(std::string("plan: --calibration: ") + e.what());
  }
}

std::vector<std::string> candidate_overrides(const PlanCandidate& c, const PlanRequest& r,
                                             const Workload& base) {
  std::vector<std::string> o = r.overrides;
  for (const std::string& s :
       {std::string("target.type=simulated"), "target.model=" + r.model,
        "target.hardware=" + r.hardware,
        "target.memory_utilization=" + number(r.memory_utilization),
        "target.weight_dtype=" + c.weight_dtype, "target.engine.kv_cache_dtype=" + c.kv_dtype,
        "target.engine.tensor_parallel=" + std::to_string(c.tensor_parallel),
        "target.engine.pipeline_parallel=" + std::to_string(c.pipeline_parallel),
        "target.engine.expert_parallel=" + std::to_string(c.expert_parallel),
        std::string("repetitions=1")}) {
    o.push_back(s);
  }
  if (!r.calibration.empty()) o.push_back("target.calibration=" + r.calibration);
  // Replicas behind the simulated router, which balances by requests in flight; disaggregated,
  // the first ones prefill.
  if (c.data_parallel > 1) {
    o.push_back("target.router={\"replicas\": " + std::to_string(c.data_parallel) +
                ", \"prefill_replicas\": " + std::to_string(c.prefill_replicas) +
                ", \"policy\": \"least-outstanding\"}");
  } else if (base.target.simulated.routed) {
    o.push_back("target.router=null");  // one engine: the workload's own router has no say
  }
  return o;
}

double stat(const nlohmann::json& summary, const char* name, const char* field) {
  const nlohmann::json& v = summary.value(name, nlohmann::json::object());
  return v.is_object() && v.value(field, nlohmann::json()).is_number() ? v[field].get<double>() : 0;
}

void simulate(PlanCandidate& c, const PlanRequest& r, const Workload& base) {
  const Workload w = load_workload_file(r.workload, candidate_overrides(c, r, base));
  RunOptions o;
  o.quiet = true;
  o.out_path = (std::filesystem::path(r.out_dir) / (c.label() + ".json")).string();
  for (char& ch : o.out_path) {
    if (ch == ' ') ch = '_';
  }
  const nlohmann::json results = run_workload(w, o).results;
  const nlohmann::json& s = results.at("points").at(0).at("summary");
  c.results_path = o.out_path;
  c.goodput_rps = s.value("goodput_rps", 0.0);
  c.request_rps = s.value("request_throughput_rps", 0.0);
  c.output_tps = s.value("output_throughput_tps", 0.0);
  c.ttft_p50_ms = stat(s, "ttft_ms", "p50");
  c.ttft_p95_ms = stat(s, "ttft_ms", "p95");
  c.tpot_p50_ms = stat(s, "tpot_ms", "p50");
  c.tpot_p95_ms = stat(s, "tpot_ms", "p95");
  if (r.price_per_gpu_hour > 0 && c.output_tps > 0) {
    c.cost_per_million_tokens = r.price_per_gpu_hour * r.gpus / 3600 / c.output_tps * 1e6;
  }
}

}  // namespace

std::string PlanCandidate::label() const {
  const std::string replicas = prefill_replicas > 0
                                   ? "P" + std::to_string(prefill_replicas) + ":D" +
                                         std::to_string(data_parallel - prefill_replicas)
                                   : "DP" + std::to_string(data_parallel);
  return "TP" + std::to_string(tensor_parallel) + " PP" + std::to_string(pipeline_parallel) +
         " EP" + std::to_string(expert_parallel) + " " + replicas + " " + weight_dtype + " KV " +
         kv_dtype;
}

Plan plan_deployment(const PlanRequest& r) {
  if (r.gpus < 1 || r.gpus > kMaxGpus) {
    throw std::invalid_argument("plan: --gpus must be in [1, " + std::to_string(kMaxGpus) + "]");
  }
  if (!(r.memory_utilization > 0 && r.memory_utilization <= 1)) {
    throw std::invalid_argument("plan: --memory-utilization must be in (0, 1]");
  }
  const ModelShape shape = load_model_shape(r.model);
  const HardwareSpec hardware = load_hardware_spec(r.hardware);
  const Workload base = load_workload_file(r.workload, r.overrides);
  if (base.sweep) {
    throw std::invalid_argument("plan: " + r.workload + ": the workload sweeps " +
                                base.sweep->field +
                                "; give one without a sweep (the plan compares layouts)");
  }
  const std::vector<std::string> weights =
      r.weight_dtypes.empty() ? default_weight_dtypes(hardware) : r.weight_dtypes;
  const std::string sixteen = hardware.has_dtype("bf16") ? "bf16" : "f16";
  const std::vector<std::string> kvs =
      r.kv_dtypes.empty() ? std::vector<std::string>{sixteen, "fp8_e4m3"} : r.kv_dtypes;
  if (kvs.empty() || weights.empty()) throw std::invalid_argument("plan: no format to try");
  check_options(r, shape, hardware, weights, kvs);
  std::filesystem::create_directories(r.out_dir);
  Plan plan;
  for (const PlanCandidate& layout : layouts(shape.config, hardware, r.gpus)) {
    for (const std::string& w : weights) {
      for (const std::string& kv : kvs) {
        PlanCandidate c = layout;
        c.weight_dtype = w;
        c.kv_dtype = kv;
        c.rejected = memory_verdict(c, shape, hardware, r, c.memory);
        if (c.rejected.empty()) {
          try {
            simulate(c, r, base);
          } catch (const std::exception& e) {
            c.rejected = e.what();
          }
        }
        (c.rejected.empty() ? plan.ranked : plan.rejected).push_back(c);
      }
    }
  }
  std::stable_sort(plan.ranked.begin(), plan.ranked.end(),
                   [](const PlanCandidate& a, const PlanCandidate& b) {
                     if (a.goodput_rps != b.goodput_rps) return a.goodput_rps > b.goodput_rps;
                     if (a.cost_per_million_tokens != b.cost_per_million_tokens) {
                       return a.cost_per_million_tokens < b.cost_per_million_tokens;
                     }
                     return a.memory.headroom_bytes() > b.memory.headroom_bytes();
                   });
  plan.notes.push_back(
      "replicas (DP, and P:D prefill and decode workers) run behind the simulated router "
      "(least-outstanding); a prompt's KV reaches its decode worker over " +
      hardware.link_for(r.gpus).name + " (docs/simulator.md)");
  return plan;
}

}  // namespace infergate
