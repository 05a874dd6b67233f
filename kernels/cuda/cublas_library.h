// cuBLAS and cuBLASLt, opened on first use (dlopen) instead of linked: loading them runs their
// static initialisers, which cost every process 0.3 s and 216 MiB (docs/cuda.md, "cuBLAS is
// opened on first use"), and `infergate` links this library for backend "cuda" alone.
#pragma once

#include <cublasLt.h>
#include <cublas_api.h>

namespace infergate::cuda {

// Every entry point the kernels call, under its exported name (cublas_v2.h's cublasCreate is
// cublasCreate_v2, and so on).
#define INFERGATE_CUBLAS_ENTRY_POINTS(X) \
  X(cublasCreate_v2)                     \
  X(cublasDestroy_v2)                    \
  X(cublasSetStream_v2)                  \
  X(cublasSetWorkspace_v2)               \
  X(cublasGetStatusName)                 \
  X(cublasGetStatusString)
#define INFERGATE_CUBLASLT_ENTRY_POINTS(X) \
  X(cublasLtCreate)                        \
  X(cublasLtDestroy)                       \
  X(cublasLtMatmul)                        \
  X(cublasLtMatmulAlgoGetHeuristic)        \
  X(cublasLtMatmulDescCreate)              \
  X(cublasLtMatmulDescDestroy)             \
  X(cublasLtMatmulDescSetAttribute)        \
  X(cublasLtMatmulPreferenceCreate)        \
  X(cublasLtMatmulPreferenceDestroy)       \
  X(cublasLtMatmulPreferenceSetAttribute)  \
  X(cublasLtMatrixLayoutCreate)            \
  X(cublasLtMatrixLayoutDestroy)

struct CublasLibrary {
#define INFERGATE_CUBLAS_MEMBER(name) decltype(&::name) name = nullptr;
  INFERGATE_CUBLAS_ENTRY_POINTS(INFERGATE_CUBLAS_MEMBER)
  INFERGATE_CUBLASLT_ENTRY_POINTS(INFERGATE_CUBLAS_MEMBER)
#undef INFERGATE_CUBLAS_MEMBER
  // Overloaded in C++ (an inline wrapper takes a cudaDataType compute type): the exported one.
  cublasStatus_t (*cublasGemmEx)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int,
                                 int, const void*, const void*, cudaDataType, int, const void*,
                                 cudaDataType, int, const void*, void*, cudaDataType, int,
                                 cublasComputeType_t, cublasGemmAlgo_t) = nullptr;
};

// The libraries of the cuBLAS version the build's headers declare (libcublas.so.13 and
// libcublasLt.so.13 for CUDA 13), opened once, every entry point resolved. Throws
// std::runtime_error naming the library and the loader's reason when one is missing or lacks
// an entry point; every call throws it again.
const CublasLibrary& cublas_library();

}  // namespace infergate::cuda
