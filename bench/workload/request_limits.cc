#include "bench/workload/request_limits.h"

#include <algorithm>
#include <cstdint>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"
#include "engine/model/model_config.h"

namespace infergate {

namespace {

// The largest length a validated distribution can draw (normal and lognormal need a max).
int64_t upper_bound(const LengthDistribution& d) {
  return d.kind == LengthDistribution::Kind::kFixed ? d.value : d.max;
}

std::string n(int64_t x) { return std::to_string(x); }

// The longest prompt: a shared prefix (when used) followed by the sampled input.
int64_t prompt_bound(const DatasetSpec& d) {
  const SharedPrefixSpec& p = d.shared_prefix;
  const bool prefixed = p.num_prefixes > 0 && p.prefix_tokens > 0 && p.fraction > 0;
  return upper_bound(d.input_tokens) + (prefixed ? p.prefix_tokens : 0);
}

}  // namespace

RequestLimit engine_request_limit(const EngineConfig& engine, int model_max_position_embeddings) {
  if (engine.max_model_len > 0) {
    return {engine.max_model_len, "target.engine.max_model_len (" + n(engine.max_model_len) + ")"};
  }
  return {model_max_position_embeddings,
          "the model's max_model_len (" + n(model_max_position_embeddings) + ")"};
}

RequestLimit static_request_limit(const TargetSpec& target) {
  // A router target's replicas are engines of its model and engine config.
  if (target.type != "engine" && target.type != "router") {
    return {kMaxRequestTokens,
            "the limit for " + target.type + " targets (" + n(kMaxRequestTokens) + ")"};
  }
  if (target.engine.max_model_len > 0) return engine_request_limit(target.engine, 0);
  if (target.model.kind != "synthetic") return {};
  return engine_request_limit(target.engine,
                              preset_config(target.model.preset).max_position_embeddings);
}

int dataset_request_count(const LoadSpec& load) {
  if (load.num_requests > 0) return load.warmup_requests + load.num_requests;
  // Duration-bound: enough distinct requests for the expected count; the driver cycles.
  return std::max(64, load.warmup_requests + 4096);
}

void check_synthetic_lengths(const Workload& w, const std::string& file,
                             const RequestLimit& limit) {
  const DatasetSpec& d = w.dataset;
  if (d.type != "synthetic") return;
  const SharedPrefixSpec& p = d.shared_prefix;
  if (int64_t(p.num_prefixes) * p.prefix_tokens > kMaxDatasetTokens) {
    throw WorkloadError::out_of_range(file, "$.dataset.shared_prefix.num_prefixes",
                                      n(p.num_prefixes),
                                      "num_prefixes x prefix_tokens (" + n(p.prefix_tokens) +
                                          ") must be <= " + n(kMaxDatasetTokens) + " tokens");
  }
  const int64_t prompt = prompt_bound(d), output = upper_bound(d.output_tokens);
  if (limit.max_tokens > 0 && prompt + output > limit.max_tokens) {
    const std::string rule = "the longest prompt (shared prefix + input_tokens: " + n(prompt) +
                             ") + output_tokens (" + n(output) + ") must fit " + limit.name;
    const bool input_fits = prompt < limit.max_tokens;
    throw WorkloadError::out_of_range(
        file, input_fits ? "$.dataset.output_tokens" : "$.dataset.input_tokens",
        n(input_fits ? output : upper_bound(d.input_tokens)), rule);
  }
  const int64_t count = dataset_request_count(w.load);
  if (count * prompt > kMaxDatasetTokens) {
    throw WorkloadError::out_of_range(
        file, "$.dataset.input_tokens", n(upper_bound(d.input_tokens)),
        n(count) + " dataset requests x the longest prompt (" + n(prompt) +
            " tokens) must be <= " + n(kMaxDatasetTokens) + " tokens held in memory");
  }
}

}  // namespace infergate
