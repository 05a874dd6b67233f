#include "engine/comm/comm_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <string>

namespace infergate {

CommSpan CommBuffer::span(CommDType dtype, size_t count) {
  check_fits(count * comm_dtype_size(dtype));
  return {data(), count, dtype};
}

void CommBuffer::check_fits(size_t n) const {
  if (n > bytes_) {
    throw std::out_of_range("communication buffer of " + std::to_string(bytes_) +
                            " bytes cannot hold " + std::to_string(n) + " bytes");
  }
}

void HostCommBuffer::Free::operator()(void* p) const { std::free(p); }

HostCommBuffer::HostCommBuffer(size_t bytes) : CommBuffer(bytes) {
  const size_t rounded = (bytes + 63) / 64 * 64;
  storage_.reset(std::aligned_alloc(64, rounded == 0 ? 64 : rounded));
  if (!storage_) throw std::bad_alloc();
}

void HostCommBuffer::upload(const void* src, size_t n) {
  check_fits(n);
  if (n) std::memcpy(data(), src, n);
}

void HostCommBuffer::download(void* dst, size_t n) {
  check_fits(n);
  if (n) std::memcpy(dst, data(), n);
}

}  // namespace infergate
