// One rank's part of a model (docs/distributed.md): its pipeline stage's layers, and within
// them, under tensor parallelism (Megatron), its query heads, its KV heads (replicated when
// there are fewer KV heads than ranks), its slice of every FFN width and of the vocabulary
// (padded to equal parts), or under expert parallelism its whole experts.
#pragma once

#include "engine/model/model_shard.h"
#include "engine/model/model_weights.h"
#include "engine/parallel/parallel_layout.h"

namespace infergate {

struct RankWeights {
  ModelWeights weights;  // config describes the part: local layers, heads, widths, vocabulary
  ModelShard shard;
};

// Throws std::invalid_argument naming the model dimension the layout cannot split.
RankWeights shard_weights(const ModelWeights& full, const ParallelLayout& layout);

}  // namespace infergate
