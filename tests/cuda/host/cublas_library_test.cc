// cuBLAS opened on first use (kernels/cuda/cublas_library.h): needs the toolkit's libraries,
// never a device, so it runs on every machine that builds the CUDA kernels.
#include <catch2/catch.hpp>
#include <string>

#include "kernels/cuda/cublas_library.h"

namespace infergate::cuda {
namespace {

TEST_CASE("cuBLAS and cuBLASLt open on first use with every entry point resolved") {
  const CublasLibrary& library = cublas_library();
#define INFERGATE_CHECK_RESOLVED(name) CHECK(library.name != nullptr);
  INFERGATE_CUBLAS_ENTRY_POINTS(INFERGATE_CHECK_RESOLVED)
  INFERGATE_CUBLASLT_ENTRY_POINTS(INFERGATE_CHECK_RESOLVED)
#undef INFERGATE_CHECK_RESOLVED
  CHECK(library.cublasGemmEx != nullptr);
  // A call that needs no device: the library answers through the resolved pointers.
  CHECK(std::string(library.cublasGetStatusName(CUBLAS_STATUS_NOT_INITIALIZED)) ==
        "CUBLAS_STATUS_NOT_INITIALIZED");
  CHECK(&cublas_library() == &library);  // opened once
}

}  // namespace
}  // namespace infergate::cuda
