// The optimized forward over a whole token list in chunks, as the engine runs a chunked
// prefill: shared by the tests that hold it against the reference forward.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/forward/cpu/cpu_transformer.h"

namespace infergate::testing {

// Runs the optimized forward over `tokens` in chunks (all rows' logits), through a paged cache
// whose block table is deliberately scattered.
inline std::vector<float> chunked_forward(const ModelWeights& w, const std::vector<int32_t>& tokens,
                                          int chunk, DType kv_dtype = DType::kF32) {
  ThreadPool pool(2);
  const int block_size = 4;
  const int blocks = int(tokens.size() + block_size - 1) / block_size;
  KvCacheStorage cache(w.config, blocks * 2 + 3, block_size, kv_dtype);
  std::vector<int32_t> table;
  for (int i = 0; i < blocks; ++i) table.push_back(2 * blocks + 2 - 2 * i);  // reversed, sparse
  CpuTransformer model(w, pool);
  std::vector<float> all;
  for (size_t start = 0; start < tokens.size(); start += size_t(chunk)) {
    const size_t end = std::min(tokens.size(), start + size_t(chunk));
    BatchInput b;
    for (size_t p = start; p < end; ++p) {
      b.token_ids.push_back(tokens[p]);
      b.positions.push_back(int32_t(p));
      b.slot_mapping.push_back(int64_t(table[p / block_size]) * block_size +
                               int64_t(p) % block_size);
      b.logits_rows.push_back(int64_t(p - start));
    }
    b.sequences.push_back({0, int64_t(end - start), int64_t(end), table.data()});
    const std::vector<float> logits = model.forward(b, cache);
    all.insert(all.end(), logits.begin(), logits.end());
  }
  return all;
}

inline double max_abs_difference(const std::vector<float>& a, const std::vector<float>& b) {
  double d = a.size() == b.size() ? 0 : INFINITY;
  for (size_t i = 0; i < a.size() && i < b.size(); ++i) {
    d = std::max(d, std::fabs(double(a[i]) - b[i]));
  }
  return d;
}

}  // namespace infergate::testing
