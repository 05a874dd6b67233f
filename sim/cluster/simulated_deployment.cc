#include "sim/cluster/simulated_deployment.h"

#include <stdexcept>

#include "common/util/fnv1a.h"
#include "sim/memory_plan.h"
#include "sim/precision.h"
#include "sim/simulated_executor.h"
#include "sim/step_cost_model.h"

namespace infergate {

namespace {

void refuse_unmodelled(const EngineConfig& c) {
  auto refuse = [](const std::string& what) {
    throw std::invalid_argument("simulated target: " + what +
                                " is not simulated yet (docs/simulator.md, \"Not built yet\")");
  };
  if (c.speculates()) refuse("speculative decoding");
}

SimLayout layout_of(const EngineConfig& c) {
  SimLayout l;
  l.tensor_parallel = c.tensor_parallel;
  l.pipeline_parallel = c.pipeline_parallel;
  l.expert_parallel = c.expert_parallel;
  l.micro_batches = c.pipeline_micro_batches > 0 ? c.pipeline_micro_batches : c.pipeline_parallel;
  l.threads = c.num_threads;
  return l;
}

}  // namespace

SimulatedDeployment::SimulatedDeployment(const SimulatedTargetSpec& spec)
    : spec_(spec),
      shape_(load_model_shape(spec.model)),
      hardware_(load_hardware_spec(spec.hardware)) {
  calibration_ = spec.calibration.empty() ? default_calibration(hardware_)
                                          : load_calibration(spec.calibration);
  calibration_hash_ = fnv1a64_hex(calibration_to_json(calibration_).dump());
}

int SimulatedDeployment::devices(const EngineConfig& config) const {
  return layout_of(config).devices();
}

double SimulatedDeployment::kv_bytes_per_token(const EngineConfig& config) const {
  const ModelConfig& m = shape_.config;
  return 2.0 * m.num_layers * m.num_kv_heads * m.head_dim *
         bytes_per_element(config.kv_cache_dtype);
}

std::unique_ptr<Engine> SimulatedDeployment::make_engine(const EngineConfig& config,
                                                         VirtualClock& clock,
                                                         const int* busy_host_ranks) const {
  refuse_unmodelled(config);
  const std::string format =
      spec_.weight_dtype.empty() ? weight_dtype_name(config.weight_dtype) : spec_.weight_dtype;
  const Precision precision =
      make_precision(format, shape_.native_dtype, config.kv_cache_dtype, hardware_);
  StepCostModel model(shape_.config, hardware_, calibration_, layout_of(config), precision);
  const DeviceMemoryPlan plan = plan_device_memory(
      shape_.config, hardware_, model.layout(), model.stage_layers(), precision, config.block_size,
      config.max_num_batched_tokens, spec_.memory_utilization > 0 ? spec_.memory_utilization : 1.0);
  EngineConfig c = config;
  if (spec_.memory_utilization > 0) {
    if (!plan.fits) throw std::invalid_argument("simulated target: " + plan.reason);
    c.num_kv_blocks = int(std::min<int64_t>(plan.kv_blocks, 1 << 30));
  }
  MemoryLedger ledger;
  ledger.weights_bytes = size_t(plan.weights_bytes);
  ledger.workspace_bytes = size_t(plan.workspace_bytes);
  const int64_t delay_ns = config.debug_inject_decode_delay_us * 1000;
  ModelWeights weights;
  weights.config = shape_.config;
  EngineEnvironment env;
  env.clock = [&clock] { return clock.now_ns(); };
  env.executor = [model = std::move(model), &clock, ledger, plan, block = c.block_size, delay_ns,
                  busy_host_ranks](const ModelWeights&, int blocks) mutable {
    MemoryLedger l = ledger;
    l.kv_cache_bytes = size_t(double(blocks) * block * plan.kv_bytes_per_token);
    auto executor = std::make_unique<SimulatedExecutor>(std::move(model), clock, l, delay_ns);
    executor->share_host_with(busy_host_ranks);
    return executor;
  };
  return std::make_unique<Engine>(c, std::move(weights), std::move(env));
}

nlohmann::json SimulatedDeployment::manifest() const {
  nlohmann::json cal = {{"name", calibration_.name}, {"hash", calibration_hash_}};
  if (!calibration_.fit.is_null()) cal["fit"] = calibration_.fit;
  return {{"model", shape_.source},
          {"hardware", hardware_spec_to_json(hardware_)},
          {"calibration", cal}};
}

}  // namespace infergate
