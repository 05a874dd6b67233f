#include "engine/core/draft_model.h"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "engine/core/batch_builder.h"
#include "engine/core/local_executor.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/request/sampler.h"

namespace infergate {

ModelWeights draft_weights(const EngineConfig& config, const ModelWeights& target) {
  ModelWeights w;
  if (config.speculative_method == SpeculativeMethod::kDraftModel) {
    const std::string& name = config.speculative_draft_model;
    w = load_model(
        parse_model_argument(name, config.speculative_draft_seed, "speculative.draft_model"));
    if (w.config.vocab_size != target.config.vocab_size) {
      throw std::invalid_argument(
          "speculative.draft_model '" + name + "': a vocabulary of " +
          std::to_string(w.config.vocab_size) + " tokens; the target's has " +
          std::to_string(target.config.vocab_size) + " (a draft proposes the target's token ids)");
    }
  } else {
    const int layers = config.speculative_draft_layers;
    if (layers > target.config.num_layers) {
      throw std::invalid_argument(
          "engine config: speculative.draft_layers = " + std::to_string(layers) + " (allowed: 0.." +
          std::to_string(target.config.num_layers) + ", the target's layers)");
    }
    w = target;
    if (layers > 0) {
      w.layers.resize(size_t(layers));
      w.config.num_layers = layers;
    }
  }
  w.apply_weight_dtype(weight_dtype_name(config.speculative_draft_weight_dtype));
  return w;
}

DraftModel::DraftModel(ModelWeights weights, ThreadPool* pool, int num_threads, int num_kv_blocks,
                       int block_size, DType kv_dtype, int max_batched_tokens)
    : block_size_(block_size),
      max_batched_tokens_(max_batched_tokens),
      vocab_size_(weights.config.vocab_size),
      weights_(std::move(weights)),
      own_pool_(pool ? nullptr : std::make_unique<ThreadPool>(num_threads)),
      cache_(weights_.config, num_kv_blocks, block_size, kv_dtype),
      model_(weights_, pool ? *pool : *own_pool_),
      kv_(make_paged_kv_cache_manager(num_kv_blocks, block_size, /*prefix_caching=*/false)) {
  weights_.drop_projection_matrices();  // packed into model_
}

DraftModel::~DraftModel() = default;

Sequence* DraftModel::synced_shadow(const Sequence& target) {
  std::unique_ptr<Sequence>& slot = shadows_[target.id];
  if (!slot) {
    slot = std::make_unique<Sequence>(target.id, target.tokens, target.params, 0, 0);
    return slot.get();
  }
  Sequence& shadow = *slot;
  const size_t limit = std::min(shadow.tokens.size(), target.tokens.size());
  size_t agree = 0;
  while (agree < limit && shadow.tokens[agree] == target.tokens[agree]) ++agree;
  // KV past the first disagreement (a rejected draft) is stale: computed again from there. The
  // last token is always fed again, for the row after it (its KV may be there already when the
  // target took one token that matched the first draft: a step without drafts).
  shadow.num_computed_tokens =
      std::min({shadow.num_computed_tokens, int(agree), target.num_tokens() - 1});
  shadow.tokens = target.tokens;
  kv_->trim(shadow);
  return &shadow;
}

void DraftModel::propose(const std::vector<Request>& requests) {
  // Requests not decoding this step (preempted, or left out by the token budget) give their
  // draft KV back: the pool then always has room for the batch, and they catch up later.
  std::unordered_set<RequestId> current;
  for (const Request& r : requests) current.insert(r.seq->id);
  for (auto it = shadows_.begin(); it != shadows_.end();) {
    if (current.count(it->first)) {
      ++it;
      continue;
    }
    kv_->free(*it->second);
    it = shadows_.erase(it);
  }
  std::vector<Drafting> drafting;
  for (const Request& r : requests) {
    r.seq->clear_drafts();
    if (r.count > 0) drafting.push_back({r.seq, synced_shadow(*r.seq), r.count});
  }
  while (true) {
    std::erase_if(drafting,
                  [](const Drafting& d) { return int(d.target->draft_tokens.size()) >= d.count; });
    if (drafting.empty()) return;
    std::vector<size_t> before;
    for (const Drafting& d : drafting) before.push_back(d.target->draft_tokens.size());
    step(drafting);
    // A request the step gave no draft (no room in the draft's pool) stops here.
    for (size_t i = 0; i < drafting.size(); ++i) {
      if (drafting[i].target->draft_tokens.size() == before[i]) drafting[i].count = 0;
    }
  }
}

void DraftModel::step(std::vector<Drafting>& drafting) {
  std::vector<size_t> pending(drafting.size());
  for (size_t i = 0; i < pending.size(); ++i) pending[i] = i;
  while (!pending.empty()) {
    SchedulerOutput out;
    std::vector<size_t> later, in_batch;
    int budget = max_batched_tokens_;
    for (size_t i : pending) {
      Sequence& shadow = *drafting[i].shadow;
      const int n = std::min(shadow.num_uncomputed_tokens(), budget);
      if (n <= 0) {
        later.push_back(i);
      } else if (kv_->allocate_slots(shadow, n, {})) {
        out.scheduled.push_back({&shadow, n});
        in_batch.push_back(i);
        budget -= n;
      }  // else no room in the draft's pool: no draft this round
    }
    if (out.scheduled.empty()) return;
    out.num_batched_tokens = max_batched_tokens_ - budget;
    const std::vector<float> logits = model_.forward(build_batch(out, block_size_), cache_);
    size_t row = 0;
    for (size_t k = 0; k < in_batch.size(); ++k) {
      Sequence& shadow = *out.scheduled[k].seq;
      const bool last_chunk = out.scheduled[k].samples();
      shadow.num_computed_tokens += out.scheduled[k].num_new_tokens;
      if (last_chunk) {
        take_draft(drafting[in_batch[k]], logits.data() + row++ * size_t(vocab_size_));
      } else {
        later.push_back(in_batch[k]);
      }
    }
    pending = std::move(later);
  }
}

void DraftModel::take_draft(Drafting& d, const float* row) {
  Sequence& target = *d.target;
  const int32_t token = sample_token(row, vocab_size_, target.params, target.draft_rng);
  if (target.params.temperature > 0.0f) {
    const std::vector<float> q = sampling_distribution(row, vocab_size_, target.params);
    target.draft_probs.insert(target.draft_probs.end(), q.begin(), q.end());
  }
  target.draft_tokens.push_back(token);
  d.shadow->tokens.push_back(token);
}

void DraftModel::release(const RequestId& id) {
  auto it = shadows_.find(id);
  if (it == shadows_.end()) return;
  kv_->free(*it->second);
  shadows_.erase(it);
}

MemoryLedger DraftModel::memory() const { return memory_of(model_, cache_); }

}  // namespace infergate
