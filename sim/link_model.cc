#include "sim/link_model.h"

namespace infergate {

double all_reduce_seconds(const LinkSpec& link, double bytes, int ranks) {
  if (ranks <= 1) return 0;
  const double n = ranks;
  return 2 * (n - 1) / n * bytes / link.bandwidth_bytes_s + 2 * (n - 1) * link.latency_s;
}

double all_to_all_seconds(const LinkSpec& link, double bytes, int ranks) {
  if (ranks <= 1) return 0;
  const double n = ranks;
  return (n - 1) / n * bytes / link.bandwidth_bytes_s + (n - 1) * link.latency_s;
}

double send_recv_seconds(const LinkSpec& link, double bytes) {
  return bytes / link.bandwidth_bytes_s + link.latency_s;
}

}  // namespace infergate
