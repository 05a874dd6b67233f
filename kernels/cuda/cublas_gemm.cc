#include "kernels/cuda/cublas_gemm.h"

#include <climits>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unordered_map>

#include "kernels/cuda/cublas_check.h"
#include "kernels/cuda/cublas_library.h"

namespace infergate::cuda {
namespace {

struct Dims {
  int m, n, k;
};

// cuBLAS takes int sizes and leading dimensions.
Dims checked_dims(int64_t m, int64_t n, int64_t k, const char* where) {
  const auto fits = [](int64_t v) { return v >= 1 && v <= INT_MAX; };
  if (!fits(m) || !fits(n) || !fits(k)) {
    throw std::invalid_argument(std::string(where) +
                                ": sizes must be in [1, 2^31 - 1], got m=" + std::to_string(m) +
                                " n=" + std::to_string(n) + " k=" + std::to_string(k));
  }
  return {int(m), int(n), int(k)};
}

cudaDataType_t cuda_type(GemmDType dtype) {
  switch (dtype) {
    case GemmDType::kF32:
      return CUDA_R_32F;
    case GemmDType::kF16:
      return CUDA_R_16F;
    case GemmDType::kBF16:
      return CUDA_R_16BF;
  }
  throw std::invalid_argument("unknown GemmDType");
}

// The largest power of two (at most 256) dividing the address. cuBLASLt's heuristic assumes
// 256-byte aligned operands unless told otherwise, and its pick could then fault on others.
uint32_t alignment(const void* ptr) {
  const auto address = reinterpret_cast<uintptr_t>(ptr);
  uint32_t align = 256;
  while (align > 1 && address % align != 0) align /= 2;
  return align;
}

struct LtKey {
  Dims dims;
  GemmDType dtype;
  uint32_t align_x, align_w, align_y;
  bool operator==(const LtKey& o) const {
    return dims.m == o.dims.m && dims.n == o.dims.n && dims.k == o.dims.k && dtype == o.dtype &&
           align_x == o.align_x && align_w == o.align_w && align_y == o.align_y;
  }
};

struct LtKeyHash {
  size_t operator()(const LtKey& key) const {
    size_t h = 0;
    for (uint64_t v :
         {uint64_t(key.dims.m), uint64_t(key.dims.n), uint64_t(key.dims.k), uint64_t(key.dtype),
          uint64_t(key.align_x), uint64_t(key.align_w), uint64_t(key.align_y)}) {
      h = h * 0x100000001b3ull ^ std::hash<uint64_t>{}(v);
    }
    return h;
  }
};

struct DescDeleter {
  void operator()(cublasLtMatmulDesc_t d) const { cublas_library().cublasLtMatmulDescDestroy(d); }
};
struct LayoutDeleter {
  void operator()(cublasLtMatrixLayout_t l) const {
    cublas_library().cublasLtMatrixLayoutDestroy(l);
  }
};
struct PreferenceDeleter {
  void operator()(cublasLtMatmulPreference_t p) const {
    cublas_library().cublasLtMatmulPreferenceDestroy(p);
  }
};
using DescPtr = std::unique_ptr<std::remove_pointer_t<cublasLtMatmulDesc_t>, DescDeleter>;
using LayoutPtr = std::unique_ptr<std::remove_pointer_t<cublasLtMatrixLayout_t>, LayoutDeleter>;
using PreferencePtr =
    std::unique_ptr<std::remove_pointer_t<cublasLtMatmulPreference_t>, PreferenceDeleter>;

LayoutPtr make_layout(cudaDataType_t type, int rows, int cols, int ld) {
  cublasLtMatrixLayout_t layout = nullptr;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatrixLayoutCreate(&layout, type, uint64_t(rows),
                                                                     uint64_t(cols), int64_t(ld)));
  return LayoutPtr(layout);
}

PreferencePtr make_preference(const LtKey& key, uint64_t workspace_bytes) {
  cublasLtMatmulPreference_t raw = nullptr;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmulPreferenceCreate(&raw));
  PreferencePtr pref(raw);
  const auto set = [&](cublasLtMatmulPreferenceAttributes_t attr, const auto& value) {
    INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmulPreferenceSetAttribute(
        pref.get(), attr, &value, sizeof(value)));
  };
  set(CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, workspace_bytes);
  // cuBLASLt's A is w, B is x, C and D are y (the column-major view of y^T = w x^T).
  set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, key.align_w);
  set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, key.align_x);
  set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, key.align_y);
  set(CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, key.align_y);
  return pref;
}

// One shape's descriptors and the algorithm the heuristic chose for it.
struct LtPlan {
  DescPtr desc;
  LayoutPtr w_layout, x_layout, y_layout;
  cublasLtMatmulAlgo_t algo{};
};

std::unique_ptr<LtPlan> make_plan(cublasLtHandle_t lt, const LtKey& key, uint64_t workspace_bytes) {
  auto plan = std::make_unique<LtPlan>();
  cublasLtMatmulDesc_t desc = nullptr;
  INFERGATE_CUBLAS_CHECK(
      cublas_library().cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  plan->desc.reset(desc);
  const cublasOperation_t transpose = CUBLAS_OP_T, keep = CUBLAS_OP_N;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_TRANSA, &transpose, sizeof(transpose)));
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmulDescSetAttribute(
      desc, CUBLASLT_MATMUL_DESC_TRANSB, &keep, sizeof(keep)));
  // Row-major data seen column-major: w [n, k] is k x n (then transposed), x [m, k] is k x m,
  // y [m, n] is n x m.
  const Dims d = key.dims;
  const cudaDataType_t in = cuda_type(key.dtype);
  plan->w_layout = make_layout(in, d.k, d.n, d.k);
  plan->x_layout = make_layout(in, d.k, d.m, d.k);
  plan->y_layout = make_layout(CUDA_R_32F, d.n, d.m, d.n);

  const PreferencePtr pref = make_preference(key, workspace_bytes);
  cublasLtMatmulHeuristicResult_t result{};
  int found = 0;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmulAlgoGetHeuristic(
      lt, desc, plan->w_layout.get(), plan->x_layout.get(), plan->y_layout.get(),
      plan->y_layout.get(), pref.get(), 1, &result, &found));
  if (found == 0) {
    throw std::runtime_error(
        "gemm_lt: cuBLASLt has no algorithm for m=" + std::to_string(d.m) +
        " n=" + std::to_string(d.n) + " k=" + std::to_string(d.k) + " " +
        gemm_dtype_name(key.dtype) + " with operand alignments x=" + std::to_string(key.align_x) +
        " w=" + std::to_string(key.align_w) + " y=" + std::to_string(key.align_y) + " bytes");
  }
  plan->algo = result.algo;
  return plan;
}

}  // namespace

struct CublasGemm::LtCache {
  std::unordered_map<LtKey, std::unique_ptr<LtPlan>, LtKeyHash> plans;
};

CublasGemm::CublasGemm() {
  try {
    INFERGATE_CUBLAS_CHECK(cublas_library().cublasCreate_v2(&handle_));
    INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtCreate(&lt_handle_));
    lt_workspace_ = DeviceBytes(kLtWorkspaceBytes);
    workspace_ = DeviceBytes(kLtWorkspaceBytes);
    lt_cache_ = std::make_unique<LtCache>();
  } catch (...) {
    release();  // the destructor does not run for a half-built object
    throw;
  }
}

CublasGemm::~CublasGemm() { release(); }

void CublasGemm::release() noexcept {
  if (lt_cache_) lt_cache_->plans.clear();  // descriptors before the handle
  if (lt_handle_) cublas_library().cublasLtDestroy(lt_handle_);
  if (handle_) cublas_library().cublasDestroy_v2(handle_);
  lt_handle_ = nullptr;
  handle_ = nullptr;
}

void CublasGemm::gemm(const void* x, const void* w, GemmDType dtype, float* y, int64_t m, int64_t n,
                      int64_t k, cudaStream_t stream) {
  const Dims d = checked_dims(m, n, k, "CublasGemm::gemm");
  const cudaDataType_t in = cuda_type(dtype);
  const float alpha = 1.0f, beta = 0.0f;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasSetStream_v2(handle_, stream));
  // A workspace of our own (cublasSetStream resets it to cuBLAS's pool): cuBLAS then never
  // allocates while a CUDA graph is being captured.
  INFERGATE_CUBLAS_CHECK(
      cublas_library().cublasSetWorkspace_v2(handle_, workspace_.data(), workspace_.bytes()));
  // Column-major y^T [n x m] = w [k x n]^T * x^T [k x m]: no copies of row-major data.
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasGemmEx(
      handle_, CUBLAS_OP_T, CUBLAS_OP_N, d.n, d.m, d.k, &alpha, w, in, d.k, x, in, d.k, &beta, y,
      CUDA_R_32F, d.n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

void CublasGemm::gemm_lt(const void* x, const void* w, GemmDType dtype, float* y, int64_t m,
                         int64_t n, int64_t k, cudaStream_t stream) {
  const LtKey key{checked_dims(m, n, k, "CublasGemm::gemm_lt"), dtype, alignment(x), alignment(w),
                  alignment(y)};
  std::unique_ptr<LtPlan>& plan = lt_cache_->plans[key];
  if (!plan) plan = make_plan(lt_handle_, key, lt_workspace_.bytes());
  const float alpha = 1.0f, beta = 0.0f;
  INFERGATE_CUBLAS_CHECK(cublas_library().cublasLtMatmul(
      lt_handle_, plan->desc.get(), &alpha, w, plan->w_layout.get(), x, plan->x_layout.get(), &beta,
      y, plan->y_layout.get(), y, plan->y_layout.get(), &plan->algo, lt_workspace_.data(),
      lt_workspace_.bytes(), stream));
}

}  // namespace infergate::cuda
