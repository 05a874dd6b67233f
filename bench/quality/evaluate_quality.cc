#include "bench/quality/evaluate_quality.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "engine/forward/cpu/sequence_logits.h"

namespace infergate {

namespace {

void check(const ModelWeights& baseline, const ModelWeights& model,
           const std::vector<int32_t>& tokens, const QualityOptions& o) {
  const ModelConfig& c = model.config;
  if (baseline.config.vocab_size != c.vocab_size) {
    throw std::invalid_argument(
        "the baseline's vocabulary (" + std::to_string(baseline.config.vocab_size) +
        " tokens) differs from the model's (" + std::to_string(c.vocab_size) + ")");
  }
  const int64_t max_context =
      std::min(c.max_position_embeddings, baseline.config.max_position_embeddings);
  if (o.context < 4 || o.context > max_context) {
    throw std::invalid_argument(o.context_name + " " + std::to_string(o.context) +
                                " is out of range (4 .. " + std::to_string(max_context) +
                                ", the models' max_position_embeddings)");
  }
  if (o.chunks < 0) throw std::invalid_argument("chunks must be >= 0 (0: all)");
  if (static_cast<int64_t>(tokens.size()) < o.context) {
    throw std::invalid_argument("the text gives " + std::to_string(tokens.size()) +
                                " tokens, fewer than one chunk (" + o.context_name + " " +
                                std::to_string(o.context) + ")");
  }
  for (int32_t t : tokens) {
    if (t < 0 || t >= c.vocab_size) {
      throw std::invalid_argument("token id " + std::to_string(t) + " is outside the vocabulary (" +
                                  std::to_string(c.vocab_size) + " tokens)");
    }
  }
}

}  // namespace

QualitySummary evaluate_quality(const ModelWeights& baseline, const ModelWeights& model,
                                const std::vector<int32_t>& tokens, const QualityOptions& options,
                                ThreadPool& pool) {
  check(baseline, model, tokens, options);
  const int64_t ctx = options.context, vocab = model.config.vocab_size;
  int64_t chunks = static_cast<int64_t>(tokens.size()) / ctx;
  if (options.chunks > 0) chunks = std::min(chunks, options.chunks);
  QualityAccumulator acc;
  for (int64_t c = 0; c < chunks; ++c) {
    const auto first = tokens.begin() + c * ctx;
    const std::vector<int32_t> chunk(first, first + ctx);
    const std::vector<float> base = sequence_logits(baseline, chunk, pool);
    const std::vector<float> test = sequence_logits(model, chunk, pool, options.kv_dtype);
    for (int64_t p = ctx / 2; p + 1 < ctx; ++p) {
      acc.add(base.data() + p * vocab, test.data() + p * vocab, vocab, chunk[size_t(p + 1)]);
    }
  }
  return acc.summary();
}

}  // namespace infergate
