// infergate's in-process NVTX tool: the process-wide half of trace capture. Once installed, the
// NVTX calls the engine already makes (push/pop, domain push/pop, marks, thread names) land in
// per-thread, append-only buffers while at least one capture is active. NvtxTraceRecorder is
// the user-facing side; this header is what it (and its tests) build on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infergate {

// One NVTX call as recorded on its thread. Names are copied (NVTX only lends the pointer) and
// truncated to kMaxNameBytes - 1 bytes so recording never allocates.
struct NvtxEvent {
  static constexpr int kMaxNameBytes = 52;
  enum class Kind : uint8_t { kPush, kPop, kMark };

  int64_t time_ns;  // common/util/clock.h now_ns()
  Kind kind;
  uint16_t domain;           // index into nvtx_capture_domains(); 0 is NVTX's default domain
  char name[kMaxNameBytes];  // NUL-terminated; empty for kPop
};

struct NvtxThreadEvents {
  int64_t tid = 0;                // Linux thread id (gettid)
  std::string thread_name;        // nvtxNameOsThread if called, else the OS thread name
  std::vector<NvtxEvent> events;  // in the order the thread made the calls
};

// Hooks NVTX through its static-injection pointer; see nvtx_capture.cc. Returns true once
// hooked (also on every later call); false, with the reason in *why_not, when NVTX already
// initialized without it, when another tool (Nsight Systems) is attached, or when built without
// the NVTX3 headers. Must run before the first NVTX call in the process.
bool install_nvtx_capture(std::string* why_not);
bool nvtx_capture_installed();

// Capture is active while the count of begin() calls exceeds end() calls.
void nvtx_capture_begin();
void nvtx_capture_end();

// Everything recorded so far, safe to call while threads are still recording.
std::vector<NvtxThreadEvents> nvtx_capture_snapshot();
// Domain names by NvtxEvent::domain ("" for the default domain).
std::vector<std::string> nvtx_capture_domains();
// Events dropped because a thread hit its buffer cap (kMaxEventsPerThread in the .cc).
uint64_t nvtx_capture_dropped();

}  // namespace infergate
