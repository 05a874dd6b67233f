#include "bench/targets/kv_handoff_figures.h"

#include <algorithm>

#include "common/results/request_samples.h"

namespace infergate {

namespace {

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return linear_percentile(v, p);
}

}  // namespace

RouterRecord::Disaggregation kv_handoff_figures(const std::vector<KvHandoffRecord>& handoffs,
                                                double kv_read_rate_cap_mb_s) {
  RouterRecord::Disaggregation d;
  d.kv_read_rate_cap_mb_s = kv_read_rate_cap_mb_s;
  std::vector<double> read_ms, prefill_ms, shares;
  double read_s = 0;
  for (const KvHandoffRecord& h : handoffs) {
    if (h.read_fallback) ++d.read_fallbacks;
    if (h.prefill_ms > 0) prefill_ms.push_back(h.prefill_ms);
    if (!h.read) continue;
    ++d.reads;
    d.kv_bytes += h.bytes;
    read_s += h.read_ms * 1e-3;
    read_ms.push_back(h.read_ms);
    if (h.ttft_share > 0) shares.push_back(h.ttft_share);
  }
  if (read_s > 0) d.bandwidth_mb_s = double(d.kv_bytes) / read_s * 1e-6;
  d.read_ms_p50 = percentile(read_ms, 50);
  d.read_ms_p95 = percentile(read_ms, 95);
  d.prefill_ms_p50 = percentile(prefill_ms, 50);
  d.prefill_ms_p95 = percentile(prefill_ms, 95);
  d.ttft_share_p50 = percentile(shares, 50);
  return d;
}

}  // namespace infergate
