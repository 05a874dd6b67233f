#include "bench/telemetry/kernel_activity.h"

#include <algorithm>
#include <map>
#include <utility>

namespace infergate {

std::vector<KernelStats> kernel_stats(const std::vector<KernelRecord>& records) {
  std::map<std::string, KernelStats> by_name;
  for (const KernelRecord& r : records) {
    KernelStats& s = by_name[r.name];
    s.name = r.name;
    ++s.count;
    s.total_ms += static_cast<double>(std::max<int64_t>(r.end_ns - r.start_ns, 0)) * 1e-6;
  }
  std::vector<KernelStats> out;
  out.reserve(by_name.size());
  for (auto& [name, stats] : by_name) out.push_back(std::move(stats));
  std::stable_sort(out.begin(), out.end(), [](const KernelStats& a, const KernelStats& b) {
    return a.total_ms > b.total_ms;  // the map already sorted ties by name
  });
  return out;
}

double gpu_busy_fraction(const std::vector<KernelRecord>& records, int64_t begin_ns,
                         int64_t end_ns) {
  if (end_ns <= begin_ns) return 0;
  std::vector<std::pair<int64_t, int64_t>> spans;
  for (const KernelRecord& r : records) {
    const int64_t from = std::max(r.start_ns, begin_ns);
    const int64_t to = std::min(r.end_ns, end_ns);
    if (to > from) spans.emplace_back(from, to);
  }
  std::sort(spans.begin(), spans.end());
  // Sweep the sorted spans, merging each into the current run while they overlap.
  int64_t busy = 0;
  int64_t run_begin = 0;
  int64_t run_end = 0;
  bool open = false;
  for (const auto& [from, to] : spans) {
    if (open && from <= run_end) {
      run_end = std::max(run_end, to);
      continue;
    }
    if (open) busy += run_end - run_begin;
    run_begin = from;
    run_end = to;
    open = true;
  }
  if (open) busy += run_end - run_begin;
  return static_cast<double>(busy) / static_cast<double>(end_ns - begin_ns);
}

}  // namespace infergate
