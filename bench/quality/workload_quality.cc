#include "bench/quality/workload_quality.h"

#include <stdexcept>

#include "bench/quality/evaluate_quality.h"
#include "bench/quality/quality_text.h"

namespace infergate {

QualitySummary measure_workload_quality(const QualitySpec& spec, const ModelSource& source,
                                        const ModelWeights& model, DType kv_dtype,
                                        int num_threads) {
  const std::vector<int32_t> tokens = tokenize_quality_text(spec.text, source, model.vocab);
  ModelWeights baseline = load_model(source);
  baseline.apply_weight_dtype(spec.baseline_dtype);
  ThreadPool pool(num_threads);
  const QualityOptions options{spec.context, spec.chunks, "quality.context", kv_dtype};
  try {
    return evaluate_quality(baseline, model, tokens, options, pool);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument("quality (text " + spec.text + "): " + e.what());
  }
}

void add_quality(RunSummary& summary, const QualitySummary& q) {
  summary.kl_divergence_mean = q.kl_divergence.mean;
  summary.kl_divergence_p99 = q.kl_divergence.p99;
  summary.top1_agreement = q.top1_agreement;
  summary.perplexity = q.perplexity;
}

}  // namespace infergate
