// bf16 GEMM, y[m, n] = x[m, k] w[n, k]^T with fp32 output: our tensor-core kernel, cuBLAS and
// cuBLASLt, square (prefill-like) and with a few rows (decode-like, memory-bound).
#include <benchmark/benchmark.h>

#include <cstdint>

#include "bench/programs/cuda/cuda_bench_util.h"
#include "kernels/cuda/cublas_gemm.h"
#include "kernels/cuda/device_buffer.h"
#include "kernels/cuda/gemm_tensor_core.h"

namespace infergate::cuda_bench {
namespace {

enum class Impl { kTensorCore, kCublas, kCublasLt };

struct GemmProblem {
  GemmProblem(int64_t m_, int64_t n_, int64_t k_)
      : m(m_), n(n_), k(k_), x(random_bf16(m * k, 1)), w(random_bf16(n * k, 2)), y(size_t(m * n)) {}
  int64_t m, n, k;
  cuda::DeviceBuffer<uint16_t> x, w;
  cuda::DeviceBuffer<float> y;
};

// One set of cuBLAS handles (and cached cuBLASLt plans) for the whole process.
cuda::CublasGemm& cublas() {
  static cuda::CublasGemm instance;
  return instance;
}

void run(Impl impl, GemmProblem& p, cudaStream_t stream) {
  const auto dtype = cuda::GemmDType::kBF16;
  switch (impl) {
    case Impl::kTensorCore:
      cuda::gemm_tensor_core(p.x.data(), p.w.data(), dtype, p.y.data(), p.m, p.n, p.k, stream);
      return;
    case Impl::kCublas:
      cublas().gemm(p.x.data(), p.w.data(), dtype, p.y.data(), p.m, p.n, p.k, stream);
      return;
    case Impl::kCublasLt:
      cublas().gemm_lt(p.x.data(), p.w.data(), dtype, p.y.data(), p.m, p.n, p.k, stream);
      return;
  }
}

// TFLOPs and of_roofline; GBps (operands read once, y written once: what bounds the decode
// shapes); for our kernel also of_cublas, cuBLAS's best time over ours on the same problem.
void bench_gemm(benchmark::State& state, Impl impl) {
  GemmProblem p(state.range(0), state.range(1), state.range(2));
  Stream stream;
  const double best = time_iterations(state, stream.get(), [&] { run(impl, p, stream.get()); });
  set_flops_counters(state, 2.0 * double(p.m) * double(p.n) * double(p.k), best);
  const double bytes = 2.0 * double(p.m * p.k + p.n * p.k) + 4.0 * double(p.m * p.n);
  state.counters["GBps"] = bytes / best / 1e9;
  if (impl == Impl::kTensorCore) {
    const double cublas_best =
        best_seconds(stream.get(), 10, [&] { run(Impl::kCublas, p, stream.get()); });
    state.counters["of_cublas"] = cublas_best / best;
  }
}

void BM_GemmTensorCore(benchmark::State& state) { bench_gemm(state, Impl::kTensorCore); }
void BM_GemmCublas(benchmark::State& state) { bench_gemm(state, Impl::kCublas); }
void BM_GemmCublasLt(benchmark::State& state) { bench_gemm(state, Impl::kCublasLt); }

void shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"m", "n", "k"})
      ->Args({4096, 4096, 4096})
      ->Args({1, 4096, 4096})
      ->Args({16, 4096, 4096})
      ->Args({64, 4096, 4096})
      ->UseManualTime()
      ->Unit(benchmark::kMicrosecond);
}
BENCHMARK(BM_GemmTensorCore)->Apply(shapes);
BENCHMARK(BM_GemmCublas)->Apply(shapes);
BENCHMARK(BM_GemmCublasLt)->Apply(shapes);

}  // namespace
}  // namespace infergate::cuda_bench
