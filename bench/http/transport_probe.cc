#include "bench/http/transport_probe.h"

#include <algorithm>
#include <exception>
#include <vector>

#include "bench/http/http_get_json.h"
#include "common/results/request_samples.h"
#include "common/util/clock.h"

namespace infergate {

namespace {
constexpr size_t kMaxProbeBody = 64 * 1024;  // /health is a word or a small JSON object
constexpr int kGiveUpAfter = 3;              // failures in a row with no answer yet: a dead server
}  // namespace

TransportProbe probe_transport(const HttpUrl& url, const std::string& path,
                               const HttpAccess& access, int count, double timeout_s) {
  TransportProbe p;
  p.path = path;
  std::vector<double> rtt_ms;
  int failures = 0;
  for (int i = 0; i < count && !(rtt_ms.empty() && failures >= kGiveUpAfter); ++i) {
    const int64_t begin = now_ns();
    try {
      http_get_text(url, path, access, timeout_s, kMaxProbeBody);
      rtt_ms.push_back(double(now_ns() - begin) * 1e-6);
    } catch (const std::exception& e) {
      if (p.failure.empty()) p.failure = e.what();
      ++failures;
    }
  }
  p.round_trips = int(rtt_ms.size());
  if (rtt_ms.empty()) return p;
  std::sort(rtt_ms.begin(), rtt_ms.end());
  p.rtt_p50_ms = linear_percentile(rtt_ms, 50);
  p.rtt_p95_ms = linear_percentile(rtt_ms, 95);
  return p;
}

}  // namespace infergate
