#include "kernels/cuda/cublas_library.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace infergate::cuda {
namespace {

#define INFERGATE_STRINGIFY_VALUE(x) #x
#define INFERGATE_STRINGIFY(x) INFERGATE_STRINGIFY_VALUE(x)
constexpr const char* kCublasSoname = "libcublas.so." INFERGATE_STRINGIFY(CUBLAS_VER_MAJOR);
constexpr const char* kCublasLtSoname = "libcublasLt.so." INFERGATE_STRINGIFY(CUBLAS_VER_MAJOR);

void* open_library(const char* soname) {
  void* handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw std::runtime_error(std::string("backend cuda needs ") + soname +
                             " (cuBLAS, from the CUDA toolkit): " + (why ? why : "not found"));
  }
  return handle;  // never closed: the process keeps using it to its end
}

template <typename Function>
void resolve(void* handle, const char* soname, const char* name, Function& out) {
  dlerror();
  void* symbol = dlsym(handle, name);
  if (!symbol) {
    throw std::runtime_error(std::string(soname) + " has no " + name +
                             ": a cuBLAS older than the headers this build used");
  }
  out = reinterpret_cast<Function>(symbol);
}

CublasLibrary load() {
  CublasLibrary library;
  void* cublas = open_library(kCublasSoname);
  void* lt = open_library(kCublasLtSoname);
#define INFERGATE_RESOLVE_CUBLAS(name) resolve(cublas, kCublasSoname, #name, library.name);
#define INFERGATE_RESOLVE_CUBLASLT(name) resolve(lt, kCublasLtSoname, #name, library.name);
  INFERGATE_CUBLAS_ENTRY_POINTS(INFERGATE_RESOLVE_CUBLAS)
  INFERGATE_CUBLASLT_ENTRY_POINTS(INFERGATE_RESOLVE_CUBLASLT)
  INFERGATE_RESOLVE_CUBLAS(cublasGemmEx)
#undef INFERGATE_RESOLVE_CUBLAS
#undef INFERGATE_RESOLVE_CUBLASLT
  return library;
}

}  // namespace

const CublasLibrary& cublas_library() {
  // A failed load throws out of the initialiser, so the next call tries (and explains) again.
  static const CublasLibrary library = load();
  return library;
}

}  // namespace infergate::cuda
