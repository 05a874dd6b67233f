// CUDA graphs of decode steps (engine config cuda_graphs): one graph per padded batch size,
// replayed instead of launching the step's ~10 kernels per layer one by one, the launch overhead
// that dominates small decode batches. A size's first step runs eagerly (growing every scratch
// buffer to its size), its second is captured, and later ones replay the capture. A graph holds
// device addresses, so when any scratch buffer has moved since (the caller's generation changed)
// every graph is dropped and captured again.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

namespace infergate::cuda {

class DecodeGraphs {
 public:
  // Sizes 1, 2, 4, ... up to the first power of two >= max_batch (at most 512).
  explicit DecodeGraphs(int max_batch);
  ~DecodeGraphs();
  DecodeGraphs(const DecodeGraphs&) = delete;
  DecodeGraphs& operator=(const DecodeGraphs&) = delete;

  // The size a step of `n` sequences is padded to; 0 when larger than every size.
  int64_t size_for(int64_t n) const;
  // Runs `body` (the step's kernels, queued on `stream`) for padded size `size`: eagerly,
  // captured then replayed, or replayed. `generation` says whether buffers have moved (any
  // change drops every graph); it is read after the eager run and before each replay.
  void run(int64_t size, cudaStream_t stream, const std::function<void()>& body,
           const std::function<size_t()>& generation);
  int64_t replays() const { return replays_; }
  size_t captured() const;

 private:
  struct Entry {
    bool warm = false;  // ran eagerly once: its buffers are grown
    cudaGraphExec_t exec = nullptr;
  };
  void capture(Entry& e, cudaStream_t stream, const std::function<void()>& body);
  void drop_graphs();

  std::vector<int64_t> sizes_;
  std::map<int64_t, Entry> entries_;
  size_t generation_ = 0;  // of the buffers the captured graphs point into
  int64_t replays_ = 0;
};

}  // namespace infergate::cuda
