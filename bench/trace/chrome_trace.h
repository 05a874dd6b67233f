// The Chrome Trace Event JSON that ui.perfetto.dev and chrome://tracing open: NVTX ranges as
// complete ("X") events on the threads that made them, request lifetimes as slices on
// synthetic "requests" lanes, GPU kernels and copies (CUPTI) on one synthetic track per device
// and stream, timestamps in microseconds from a common origin. See docs/tracing.md for what a
// reader sees.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace infergate {

// One NVTX range (or mark) reconstructed from a thread's push/pop calls.
struct TraceSlice {
  int64_t tid = 0;
  std::string domain;  // "" for NVTX's default domain
  std::string name;
  int64_t begin_ns = 0;
  int64_t end_ns = 0;       // == begin_ns for a mark
  int depth = 0;            // nesting level within its thread and domain (0: outermost)
  bool mark = false;        // an nvtxMark: an instant, not a range
  bool unfinished = false;  // still open when recording stopped: ends at the stop time
};

struct TraceThread {
  int64_t tid = 0;
  std::string name;
};

// A request's lifetime; times on common/util/clock.h, 0 meaning "never happened" (as in
// bench/metrics/request_record.h).
// A span of a request's time spent elsewhere (a disaggregated request's prefill phase and KV
// read), drawn inside the request's phases on its lane.
struct TracePhase {
  std::string name;
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
};

struct TraceRequest {
  uint64_t index = 0;
  int64_t scheduled_ns = 0;
  int64_t sent_ns = 0;
  int64_t first_token_ns = 0;
  int64_t finished_ns = 0;
  std::string status;
  std::vector<TracePhase> phases;
};

// A kernel or memory copy the GPU ran (bench/telemetry/cupti_tracer.h), on common/util/clock.h.
struct TraceGpuSpan {
  std::string name;
  std::string category;  // "cuda_kernel" or "cuda_memcpy"
  int64_t begin_ns = 0;
  int64_t end_ns = 0;
  uint32_t device = 0;
  uint32_t stream = 0;
};

struct ChromeTrace {
  int64_t origin_ns = 0;  // becomes ts 0; nothing in the trace may precede it
  int64_t end_ns = 0;     // where unfinished requests end
  int64_t pid = 0;
  std::vector<TraceThread> threads;
  std::vector<TraceSlice> slices;
  std::vector<TraceRequest> requests;
  std::vector<TraceGpuSpan> gpu_spans;
  nlohmann::json other_data = nlohmann::json::object();  // free-form, shown in Perfetto's info
};

// Request lanes are synthetic threads with ids from here up; Linux thread ids stay below 2^22.
inline constexpr int64_t kRequestLaneTidBase = int64_t{1} << 30;
// GPU tracks ("GPU 0 stream 7") are synthetic threads from here up, below the request lanes.
inline constexpr int64_t kGpuTrackTidBase = int64_t{1} << 29;

// The whole trace as JSON text.
std::string chrome_trace_json(const ChromeTrace& trace);

// Writes chrome_trace_json() to `path` atomically (temporary file, then rename); throws
// std::runtime_error naming the path.
void write_chrome_trace_file(const ChromeTrace& trace, const std::string& path);

}  // namespace infergate
