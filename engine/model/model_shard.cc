#include "engine/model/model_shard.h"

#include <algorithm>

namespace infergate {

void assemble_vocab_parts(const float* gathered, int64_t rows, int64_t part,
                          const ModelShard& shard, float* out) {
  const int64_t full = shard.full_vocab;
  for (int64_t g = 0; g < shard.group_size; ++g) {
    const int64_t width = std::min(part, full - g * part);
    for (int64_t r = 0; width > 0 && r < rows; ++r) {
      std::copy_n(gathered + (g * rows + r) * part, width, out + r * full + g * part);
    }
  }
}

}  // namespace infergate
