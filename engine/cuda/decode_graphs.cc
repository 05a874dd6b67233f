#include "engine/cuda/decode_graphs.h"

#include "kernels/cuda/cuda_check.h"

namespace infergate::cuda {

DecodeGraphs::DecodeGraphs(int max_batch) {
  for (int64_t s = 1; s <= 512; s *= 2) {
    sizes_.push_back(s);
    if (s >= max_batch) break;
  }
}

DecodeGraphs::~DecodeGraphs() { drop_graphs(); }

int64_t DecodeGraphs::size_for(int64_t n) const {
  for (int64_t s : sizes_) {
    if (s >= n) return s;
  }
  return 0;
}

size_t DecodeGraphs::captured() const {
  size_t n = 0;
  for (const auto& [size, e] : entries_) n += e.exec != nullptr;
  return n;
}

void DecodeGraphs::drop_graphs() {
  for (auto& [size, e] : entries_) {
    if (e.exec) cudaGraphExecDestroy(e.exec);
    e.exec = nullptr;
  }
}

// Thread-local capture mode: another thread's CUDA calls cannot join or break this capture. A
// body that throws leaves the stream out of capture mode again before the error goes on.
void DecodeGraphs::capture(Entry& e, cudaStream_t stream, const std::function<void()>& body) {
  cudaGraph_t graph = nullptr;
  INFERGATE_CUDA_CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
  try {
    body();
  } catch (...) {
    cudaStreamEndCapture(stream, &graph);
    if (graph) cudaGraphDestroy(graph);
    throw;
  }
  INFERGATE_CUDA_CHECK(cudaStreamEndCapture(stream, &graph));
  const cudaError_t made = cudaGraphInstantiate(&e.exec, graph, 0);
  cudaGraphDestroy(graph);
  INFERGATE_CUDA_CHECK(made);
}

void DecodeGraphs::run(int64_t size, cudaStream_t stream, const std::function<void()>& body,
                       const std::function<size_t()>& generation) {
  Entry& e = entries_[size];
  if (!e.warm) {
    body();
    e.warm = true;
    return;
  }
  if (captured() > 0 && generation() != generation_) drop_graphs();  // buffers moved
  if (!e.exec) {
    generation_ = generation();
    capture(e, stream, body);
  }
  INFERGATE_CUDA_CHECK(cudaGraphLaunch(e.exec, stream));
  ++replays_;
}

}  // namespace infergate::cuda
