// What the GPU ran during a run, as CUPTI reported it (bench/telemetry/cupti_tracer.h), reduced
// to the numbers a results file carries: time per kernel name and how busy the GPU was. Pure
// functions over records, so they are tested on any machine with constructed records.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/results/cupti_record.h"  // KernelStats

namespace infergate {

// One kernel execution (or one memcpy: the same shape), on common/util/clock.h.
struct KernelRecord {
  std::string name;
  int64_t start_ns = 0;
  int64_t end_ns = 0;
  uint32_t device = 0;
  uint32_t stream = 0;
};

// Per name: how many ran and their summed duration; by total time, longest first (ties by
// name, so the order is stable).
std::vector<KernelStats> kernel_stats(const std::vector<KernelRecord>& records);

// The share of [begin_ns, end_ns) in which at least one kernel ran: the length of the union of
// the kernel intervals, clipped to the window, over the window's length. Kernels overlapping on
// different streams (or devices) count once. 0 for an empty or inverted window.
double gpu_busy_fraction(const std::vector<KernelRecord>& records, int64_t begin_ns,
                         int64_t end_ns);

}  // namespace infergate
