// CUPTI activity tracing: what the GPU ran during a repetition (kernels and memory copies), with
// their GPU timestamps moved onto common/util/clock.h so they line up with request times and
// NVTX ranges. Switched on by the workload's "telemetry": {"cupti": true}
// (docs/workload-schema.md); what results show: docs/results-schema.md, "CUPTI".
//
//   CuptiTracer tracer;
//   if (!tracer.start()) warn(tracer.unavailable_reason());  // no GPU: the run goes on
//   ... run ...
//   tracer.stop();
//   kernel_stats(tracer.kernels());
//
// Built with CUPTI only when the CUDA toolkit is (INFERGATE_HAVE_CUPTI); otherwise start()
// answers "built without CUPTI". CUPTI's buffer callbacks carry no user pointer, so one tracer
// records at a time in a process; start() on a second one is refused with the reason.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "bench/telemetry/kernel_activity.h"

namespace infergate {

class CuptiTracer {
 public:
  CuptiTracer() = default;
  ~CuptiTracer();  // stops
  CuptiTracer(const CuptiTracer&) = delete;
  CuptiTracer& operator=(const CuptiTracer&) = delete;

  // Enables kernel and memcpy activity records and measures the offset from CUPTI's clock to
  // the steady clock. Never throws: false, with unavailable_reason() set (CUPTI's own error
  // string), when there is no GPU or driver, another tool owns CUPTI, or it was built without.
  bool start();
  // Flushes every buffer (also of work still in flight) and disables the records. Idempotent.
  void stop();

  bool available() const { return available_; }
  const std::string& unavailable_reason() const { return reason_; }

  // Records delivered so far, in delivery order. Complete after stop().
  std::vector<KernelRecord> kernels() const;
  std::vector<KernelRecord> memcpys() const;
  // Records CUPTI had to drop (its buffers were full): the numbers above undercount by these.
  uint64_t dropped_records() const;

 private:
  friend struct CuptiCallbacks;

  // Parses one completed CUPTI buffer (called on CUPTI's thread or in stop()'s flush).
  void take_buffer(uint8_t* buffer, size_t valid_bytes, size_t dropped);
  std::string demangled(const char* name);

  bool available_ = false;
  bool running_ = false;
  std::string reason_;
  std::atomic<int64_t> offset_ns_{0};  // steady clock = CUPTI timestamp + offset_ns_

  mutable std::mutex mu_;
  std::vector<KernelRecord> kernels_;
  std::vector<KernelRecord> memcpys_;
  uint64_t dropped_ = 0;
  std::unordered_map<std::string, std::string> names_;  // mangled -> demangled
};

}  // namespace infergate
