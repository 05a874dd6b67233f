// A workload's quality section (workload.h, QualitySpec), scored once per run: the target's
// weights against a fresh copy of the same model at the baseline dtype, and the figures each
// repetition's summary carries.
#pragma once

#include "bench/quality/quality_metrics.h"
#include "bench/workload/workload.h"
#include "engine/model/model_weights.h"

namespace infergate {

// `model`: the target's weights, already at the engine's weight_dtype. Throws
// std::invalid_argument naming the field when the text does not fill one chunk or the context is
// longer than the model's.
// `kv_dtype`: the target's KV cache storage, which the model side uses too (the baseline's is
// fp32), so a quantized KV cache's cost is in the figures.
QualitySummary measure_workload_quality(const QualitySpec& spec, const ModelSource& source,
                                        const ModelWeights& model, DType kv_dtype, int num_threads);

// Fills the summary's quality metrics (kl_divergence_mean, ..., perplexity) from `q`.
void add_quality(RunSummary& summary, const QualitySummary& q);

}  // namespace infergate
