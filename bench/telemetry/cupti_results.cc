#include "bench/telemetry/cupti_results.h"

#include "bench/telemetry/kernel_activity.h"

namespace infergate {

CuptiRecord cupti_record(const CuptiTracer& tracer, int64_t begin_ns, int64_t end_ns) {
  const std::vector<KernelRecord> kernels = tracer.kernels();
  CuptiRecord r;
  r.available = tracer.available();
  r.kernels = kernel_stats(kernels);
  r.memcpys = kernel_stats(tracer.memcpys());
  r.dropped_records = tracer.dropped_records();
  if (r.available) {
    r.gpu_busy_fraction = gpu_busy_fraction(kernels, begin_ns, end_ns);
  } else {
    r.unavailable_reason = tracer.unavailable_reason();
  }
  return r;
}

}  // namespace infergate
