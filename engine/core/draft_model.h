// Speculative decoding's model proposer: a smaller model on the target's vocabulary (method
// draft_model), or the target's own first layers or quantized copy (method self), drafting
// tokens one at a time for every decoding request at once, with a paged KV cache of its own.
// Between steps it keeps the draft KV of the requests it proposed for; after a verification
// only the KV of tokens the target accepted stays (the rest is recomputed from the first token
// that differs). A request not proposed for in a step (preempted, finished) loses its draft KV.
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "engine/core/engine_config.h"
#include "engine/core/memory_ledger.h"
#include "engine/forward/cpu/cpu_transformer.h"
#include "engine/kv/kv_cache_manager.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/model_weights.h"
#include "engine/request/sequence.h"
#include "kernels/cpu/thread_pool.h"

namespace infergate {

// The draft's weights for `config` (speculative.method draft_model or self): the named model,
// or the target's first speculative_draft_layers layers with its final norm and LM head; then
// converted to speculative_draft_weight_dtype. Throws std::invalid_argument for a draft on
// another vocabulary or with more layers than the target, and the loader's errors.
ModelWeights draft_weights(const EngineConfig& config, const ModelWeights& target);

class DraftModel {
 public:
  // `weights`: the draft's, in the dtype it runs in; `pool`: the target's worker threads when
  // they are this process's (the two never run at once, and a second pool's spinning workers
  // would contend with the first), else nullptr: a pool of num_threads of its own (rank 0 of a
  // multi-rank engine). Its KV pool holds num_kv_blocks blocks of block_size tokens; a forward
  // takes at most max_batched_tokens tokens (a long prompt's catch-up is split).
  DraftModel(ModelWeights weights, ThreadPool* pool, int num_threads, int num_kv_blocks,
             int block_size, DType kv_dtype, int max_batched_tokens);
  ~DraftModel();

  struct Request {
    Sequence* seq = nullptr;
    int count = 0;  // tokens to propose at most
  };
  // Fills each request's draft_tokens (and, when it samples, draft_probs: the draft's
  // distribution q for each, drawn with the request's draft_rng), and frees the draft KV of
  // every request not among them. A request the draft's pool has no room for gets fewer drafts
  // or none.
  void propose(const std::vector<Request>& requests);
  // Forgets a request (finished or aborted), returning its draft KV blocks.
  void release(const RequestId& id);
  MemoryLedger memory() const;
  int vocab_size() const { return vocab_size_; }

 private:
  struct Drafting {
    Sequence* target;
    Sequence* shadow;  // the draft's view: the target's tokens, then its drafts so far
    int count;
  };
  // The request's draft state, its KV kept only as far as it agrees with the target's tokens.
  Sequence* synced_shadow(const Sequence& target);
  // Computes every shadow's uncomputed tokens (the chunks fitting max_batched_tokens per
  // forward) and samples one draft for each from its last row. Drops the ones without room.
  void step(std::vector<Drafting>& drafting);
  void take_draft(Drafting& d, const float* row);

  int block_size_;
  int max_batched_tokens_;
  int vocab_size_;
  // The forward reads embeddings and norms from here (its projections are packed copies).
  ModelWeights weights_;
  std::unique_ptr<ThreadPool> own_pool_;  // when not given the target's
  KvCacheStorage cache_;
  CpuTransformer model_;
  std::unique_ptr<KvCacheManager> kv_;
  std::unordered_map<RequestId, std::unique_ptr<Sequence>> shadows_;
};

}  // namespace infergate
