// Memory that a communicator's collectives can use, with copies to and from host memory: host
// memory for MPI, GPU memory for NCCL. Benchmarks and tests fill and check buffers through it
// without knowing which backend they drive.
#pragma once

#include <cstddef>
#include <memory>

#include "engine/comm/comm_span.h"

namespace infergate {

enum class MemorySpace { kHost, kCuda };

class CommBuffer {
 public:
  explicit CommBuffer(size_t bytes) : bytes_(bytes) {}
  virtual ~CommBuffer() = default;
  CommBuffer(const CommBuffer&) = delete;
  CommBuffer& operator=(const CommBuffer&) = delete;

  virtual void* data() = 0;
  size_t bytes() const { return bytes_; }
  // Copies `n` bytes from host memory `src` to the start of the buffer, or back.
  virtual void upload(const void* src, size_t n) = 0;
  virtual void download(void* dst, size_t n) = 0;
  // The first `count` elements as `dtype`; throws std::out_of_range when they do not fit.
  CommSpan span(CommDType dtype, size_t count);

 protected:
  void check_fits(size_t n) const;

 private:
  size_t bytes_;
};

// Host memory, 64-byte aligned (cache lines; what AVX-512 loads like).
class HostCommBuffer final : public CommBuffer {
 public:
  explicit HostCommBuffer(size_t bytes);
  void* data() override { return storage_.get(); }
  void upload(const void* src, size_t n) override;
  void download(void* dst, size_t n) override;

 private:
  struct Free {
    void operator()(void* p) const;
  };
  std::unique_ptr<void, Free> storage_;
};

}  // namespace infergate
