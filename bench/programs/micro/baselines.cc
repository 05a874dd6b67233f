#include "baselines.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <thread>
#include <vector>

#include <sys/mman.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif
#if defined(INFERGATE_HAVE_OPENBLAS)
#include <cblas.h>
#endif
#if defined(INFERGATE_HAVE_DNNL)
#include <dnnl.h>
#endif

#include "kernels/cpu/cpu_features.h"

namespace infergate::bench {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

#if defined(__x86_64__)
// Four independent 512-bit accumulators: enough loads in flight to saturate the memory system.
__attribute__((target("avx512f"))) float sum_avx512(const float* p, size_t count) {
  __m512 a0 = _mm512_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
  size_t i = 0;
  for (; i + 64 <= count; i += 64) {
    a0 = _mm512_add_ps(a0, _mm512_load_ps(p + i));
    a1 = _mm512_add_ps(a1, _mm512_load_ps(p + i + 16));
    a2 = _mm512_add_ps(a2, _mm512_load_ps(p + i + 32));
    a3 = _mm512_add_ps(a3, _mm512_load_ps(p + i + 48));
  }
  alignas(64) float lanes[16];
  _mm512_store_ps(lanes, _mm512_add_ps(_mm512_add_ps(a0, a1), _mm512_add_ps(a2, a3)));
  float s = 0;
  for (float v : lanes) s += v;
  for (; i < count; ++i) s += p[i];
  return s;
}

// 12 independent FMA chains of 8 (or 16) lanes: more than latency x ports (4 x 2) needs, so
// the FMA units, not the dependency chains, bound the loop. Written in assembly because the
// compiler spills an array of accumulators that must not be folded away. Returns FLOPs done.
#define INFERGATE_FMA12(reg)                     \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "0\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "1\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "2\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "3\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "4\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "5\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "6\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "7\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "8\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "9\n\t"                                        \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg \
  "10\n\t"                                       \
  "vfmadd231ps %%" reg "14, %%" reg "15, %%" reg "11\n\t"

__attribute__((target("avx2,fma"))) double fma_loop_avx2(int64_t iterations) {
  int64_t n = iterations;
  __asm__ volatile(
      // vzeroall: garbage accumulators could be denormal, and denormals take slow assists
      "vzeroall\n\t"
      "1:\n\t" INFERGATE_FMA12("ymm") "dec %0\n\t"
      "jnz 1b\n\t"
      "vzeroupper\n\t"
      : "+r"(n)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc");
  return double(iterations) * 12 * 8 * 2;
}
__attribute__((target("avx512f"))) double fma_loop_avx512(int64_t iterations) {
  int64_t n = iterations;
  __asm__ volatile(
      // vzeroall: garbage accumulators could be denormal, and denormals take slow assists
      "vzeroall\n\t"
      "1:\n\t" INFERGATE_FMA12("zmm") "dec %0\n\t"
      "jnz 1b\n\t"
      "vzeroupper\n\t"
      : "+r"(n)
      :
      : "xmm0", "xmm1", "xmm2", "xmm3", "xmm4", "xmm5", "xmm6", "xmm7", "xmm8", "xmm9", "xmm10",
        "xmm11", "xmm12", "xmm13", "xmm14", "xmm15", "cc");
  return double(iterations) * 12 * 16 * 2;
}
#undef INFERGATE_FMA12
#endif

float sum_portable(const float* p, size_t count) {
  float acc[16] = {};
  size_t i = 0;
  for (; i + 16 <= count; i += 16) {
    for (int l = 0; l < 16; ++l) acc[l] += p[i + size_t(l)];
  }
  float s = 0;
  for (; i < count; ++i) s += p[i];
  for (float v : acc) s += v;
  return s;
}

float sum(const float* p, size_t count) {
#if defined(__x86_64__)
  if (detected_isa() >= IsaLevel::kAvx512) return sum_avx512(p, count);
#endif
  return sum_portable(p, count);
}

volatile float g_sink;

}  // namespace

std::shared_ptr<float> huge_page_buffer(size_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, size_t(2) << 20, bytes) != 0) throw std::bad_alloc();
  madvise(p, bytes, MADV_HUGEPAGE);
  std::memset(p, 0, bytes);
  return std::shared_ptr<float>(static_cast<float*>(p), [](float* q) { std::free(q); });
}

ThreadPool& bench_pool() {
  static ThreadPool pool(0);
  return pool;
}

double fma_peak_flops(IsaLevel level, ThreadPool& pool) {
#if defined(__x86_64__)
  if (level == IsaLevel::kGeneric || level > detected_isa()) return 0;
  const bool wide = level >= IsaLevel::kAvx512;
  double best = 0;
  for (int pass = 0; pass < 5; ++pass) {
    std::vector<double> flops(static_cast<size_t>(pool.size()), 0.0);
    const auto t0 = Clock::now();
    pool.parallel_for(pool.size(), [&](int64_t b, int64_t e) {
      for (int64_t t = b; t < e; ++t) {
        flops[size_t(t)] = wide ? fma_loop_avx512(4'000'000) : fma_loop_avx2(4'000'000);
      }
    });
    const double s = seconds_since(t0);
    double total = 0;
    for (double f : flops) total += f;
    best = std::max(best, total / s);
  }
  return best;
#else
  (void)level, (void)pool;
  return 0;
#endif
}

double read_pass_bytes_per_second(const float* buffer, size_t bytes, ThreadPool& pool) {
  const size_t count = bytes / sizeof(float);
  // 64-element (one 256-byte) granules keep every thread's range aligned.
  const int64_t granules = int64_t(count / 64);
  std::vector<float> partial(static_cast<size_t>(pool.size()), 0.0f);
  const auto t0 = Clock::now();
  pool.parallel_for(pool.size(), [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const size_t g0 = size_t(granules * t / pool.size()),
                   g1 = size_t(granules * (t + 1) / pool.size());
      partial[size_t(t)] = sum(buffer + g0 * 64, (g1 - g0) * 64);
    }
  });
  const double s = seconds_since(t0);
  float total = 0;
  for (float v : partial) total += v;
  g_sink = total;
  return double(granules) * 64 * sizeof(float) / s;
}

// Best of `reps` timed calls: on a shared machine the fastest pass is the machine's rate.
template <typename Fn>
[[maybe_unused]] double best_seconds(int reps, Fn&& fn) {
  double best = 1e30;
  for (int r = 0; r < reps; ++r) {
    const auto t0 = Clock::now();
    fn();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

double openblas_sgemm_seconds(int64_t m, int64_t n, int64_t k, int reps) {
#if defined(INFERGATE_HAVE_OPENBLAS)
  std::vector<float> a(size_t(m * k), 0.5f), b(size_t(k * n), 0.25f), c(size_t(m * n));
  return best_seconds(reps, [&] {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, int(m), int(n), int(k), 1.0f, a.data(),
                int(k), b.data(), int(n), 0.0f, c.data(), int(n));
  });
#else
  (void)m, (void)n, (void)k, (void)reps;
  return -1;
#endif
}

double onednn_sgemm_seconds(int64_t m, int64_t n, int64_t k, int reps) {
#if defined(INFERGATE_HAVE_DNNL)
  std::vector<float> a(size_t(m * k), 0.5f), b(size_t(k * n), 0.25f), c(size_t(m * n));
  return best_seconds(reps, [&] {
    dnnl_sgemm('N', 'N', m, n, k, 1.0f, a.data(), k, b.data(), n, 0.0f, c.data(), n);
  });
#else
  (void)m, (void)n, (void)k, (void)reps;
  return -1;
#endif
}

GemmResult best_sgemm_rate(int64_t m, int64_t n, int64_t k) {
  const double flop = 2.0 * double(m) * double(n) * double(k);
  GemmResult best{"none", 0};
  const double ob = openblas_sgemm_seconds(m, n, k, 6);
  if (ob > 0 && flop / ob > best.flops) best = {"openblas", flop / ob};
  const double dn = onednn_sgemm_seconds(m, n, k, 6);
  if (dn > 0 && flop / dn > best.flops) best = {"onednn", flop / dn};
  return best;
}

const Baselines& baselines() {
  static const Baselines b = [] {
    Baselines r;
    constexpr size_t kBytes = size_t(2) << 30;
    const std::shared_ptr<float> buf = huge_page_buffer(kBytes);
    const size_t count = kBytes / sizeof(float);
    bench_pool().parallel_for(int64_t(count), [&](int64_t s, int64_t e) {
      for (int64_t i = s; i < e; ++i) buf.get()[i] = 1.0f + float(i & 7);
    });
    for (int rep = 0; rep < 6; ++rep) {
      r.read_bytes_per_second = std::max(
          r.read_bytes_per_second, read_pass_bytes_per_second(buf.get(), kBytes, bench_pool()));
    }
    r.gemm = best_sgemm_rate(2048, 2048, 2048);
    // OpenBLAS workers spin for a while after a call; let them sleep before anything is timed.
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    return r;
  }();
  return b;
}

}  // namespace infergate::bench
