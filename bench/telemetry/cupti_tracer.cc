#include "bench/telemetry/cupti_tracer.h"

#include <cxxabi.h>
#include <dlfcn.h>

#include <cstdlib>
#include <memory>

#include "common/util/clock.h"

#ifdef INFERGATE_HAVE_CUPTI
#include <cupti.h>
#endif

namespace infergate {

CuptiTracer::~CuptiTracer() { stop(); }

std::vector<KernelRecord> CuptiTracer::kernels() const {
  std::lock_guard<std::mutex> lock(mu_);
  return kernels_;
}

std::vector<KernelRecord> CuptiTracer::memcpys() const {
  std::lock_guard<std::mutex> lock(mu_);
  return memcpys_;
}

uint64_t CuptiTracer::dropped_records() const {
  std::lock_guard<std::mutex> lock(mu_);
  return dropped_;
}

std::string CuptiTracer::demangled(const char* name) {
  if (name == nullptr) return "(unnamed)";
  const auto it = names_.find(name);
  if (it != names_.end()) return it->second;
  int status = 0;
  const std::unique_ptr<char, decltype(&std::free)> plain(
      abi::__cxa_demangle(name, nullptr, nullptr, &status), &std::free);
  // C kernels (extern "C") are not mangled: kept as given.
  return names_.emplace(name, status == 0 && plain ? plain.get() : name).first->second;
}

#ifdef INFERGATE_HAVE_CUPTI

namespace {

constexpr size_t kBufferBytes = size_t{8} << 20;  // ~40k kernel records
constexpr size_t kBufferAlign = 8;                // CUPTI's record alignment

// The recording tracer, for CUPTI's callbacks, which carry no user pointer.
std::mutex g_active_mu;
CuptiTracer* g_active = nullptr;

// CUPTI says only CUPTI_ERROR_UNKNOWN when there is no driver at all: name the likely cause.
std::string driver_hint() {
  void* driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_LOCAL);
  if (driver != nullptr) {
    dlclose(driver);
    return "";
  }
  const char* why = dlerror();
  return std::string(" (no NVIDIA driver: ") + (why ? why : "libcuda.so.1 not found") + ")";
}

std::string cupti_error(const std::string& call, CUptiResult result) {
  const char* text = nullptr;
  if (cuptiGetResultString(result, &text) != CUPTI_SUCCESS || text == nullptr) {
    text = "unknown CUPTI error";
  }
  return call + " failed: " + text + driver_hint();
}

// nsys's names for copies, so the two tools' tables read alike.
const char* memcpy_name(uint8_t copy_kind) {
  switch (copy_kind) {
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOD:
      return "[CUDA memcpy HtoD]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOH:
      return "[CUDA memcpy DtoH]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_DTOD:
      return "[CUDA memcpy DtoD]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_HTOH:
      return "[CUDA memcpy HtoH]";
    case CUPTI_ACTIVITY_MEMCPY_KIND_PTOP:
      return "[CUDA memcpy PtoP]";
    default:
      return "[CUDA memcpy]";
  }
}

// A record CUPTI could not complete (forced flush of work still running) has no end.
bool complete(uint64_t start, uint64_t end) { return start != 0 && end >= start; }

}  // namespace

struct CuptiCallbacks {
  static void CUPTIAPI requested(uint8_t** buffer, size_t* size, size_t* max_records) {
    *buffer = static_cast<uint8_t*>(std::aligned_alloc(kBufferAlign, kBufferBytes));
    *size = *buffer == nullptr ? 0 : kBufferBytes;
    *max_records = 0;  // as many as fit
  }

  static void CUPTIAPI completed(CUcontext context, uint32_t stream, uint8_t* buffer, size_t,
                                 size_t valid_bytes) {
    size_t dropped = 0;
    if (cuptiActivityGetNumDroppedRecords(context, stream, &dropped) != CUPTI_SUCCESS) dropped = 0;
    {
      std::lock_guard<std::mutex> lock(g_active_mu);
      if (g_active != nullptr) g_active->take_buffer(buffer, valid_bytes, dropped);
    }
    std::free(buffer);
  }
};

namespace {

// Registered once per process: the callbacks route to whichever tracer is recording.
CUptiResult register_callbacks() {
  static const CUptiResult result =
      cuptiActivityRegisterCallbacks(&CuptiCallbacks::requested, &CuptiCallbacks::completed);
  return result;
}

// steady - CUPTI, from a CUPTI timestamp read between two steady-clock reads.
CUptiResult clock_offset(int64_t* offset_ns) {
  const int64_t before = now_ns();
  uint64_t cupti_ns = 0;
  const CUptiResult r = cuptiGetTimestamp(&cupti_ns);
  const int64_t after = now_ns();
  *offset_ns = before + (after - before) / 2 - static_cast<int64_t>(cupti_ns);
  return r;
}

// "" when kernel and memcpy records are on, else why not (nothing is left enabled then). The
// clock offset is measured first, so every record can be converted.
std::string enable_activities(std::atomic<int64_t>* offset_ns) {
  CUptiResult r = register_callbacks();
  if (r != CUPTI_SUCCESS) return cupti_error("cuptiActivityRegisterCallbacks", r);
  int64_t offset = 0;
  r = clock_offset(&offset);
  if (r != CUPTI_SUCCESS) return cupti_error("cuptiGetTimestamp", r);
  offset_ns->store(offset);
  r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  if (r != CUPTI_SUCCESS) return cupti_error("cuptiActivityEnable(CONCURRENT_KERNEL)", r);
  r = cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MEMCPY);
  if (r == CUPTI_SUCCESS) return "";
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  return cupti_error("cuptiActivityEnable(MEMCPY)", r);
}

}  // namespace

bool CuptiTracer::start() {
  if (running_) return true;
  {
    std::lock_guard<std::mutex> lock(g_active_mu);
    if (g_active != nullptr) {
      reason_ = "another CuptiTracer is already recording in this process";
      available_ = false;
      return false;
    }
    g_active = this;
  }
  {
    std::lock_guard<std::mutex> lock(mu_);
    kernels_.clear();
    memcpys_.clear();
    dropped_ = 0;
  }
  reason_ = enable_activities(&offset_ns_);
  available_ = reason_.empty();
  if (!available_) {
    std::lock_guard<std::mutex> lock(g_active_mu);
    g_active = nullptr;
    return false;
  }
  running_ = true;
  return true;
}

void CuptiTracer::stop() {
  if (!running_) return;
  // Flush before and after disabling: records of work finished by now arrive either way. The
  // callbacks take g_active_mu, so no lock is held across the flushes (they may call back on
  // this thread).
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_MEMCPY);
  cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  std::lock_guard<std::mutex> lock(g_active_mu);
  g_active = nullptr;
  running_ = false;
}

void CuptiTracer::take_buffer(uint8_t* buffer, size_t valid_bytes, size_t dropped) {
  const int64_t offset = offset_ns_.load();
  std::lock_guard<std::mutex> lock(mu_);
  dropped_ += dropped;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid_bytes, &record) == CUPTI_SUCCESS) {
    if (record->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL ||
        record->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      const auto* k = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
      if (!complete(k->start, k->end)) continue;
      kernels_.push_back({demangled(k->name), static_cast<int64_t>(k->start) + offset,
                          static_cast<int64_t>(k->end) + offset, k->deviceId, k->streamId});
    } else if (record->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {
      const auto* m = reinterpret_cast<const CUpti_ActivityMemcpy6*>(record);
      if (!complete(m->start, m->end)) continue;
      memcpys_.push_back({memcpy_name(m->copyKind), static_cast<int64_t>(m->start) + offset,
                          static_cast<int64_t>(m->end) + offset, m->deviceId, m->streamId});
    }
  }
}

#else  // !INFERGATE_HAVE_CUPTI

bool CuptiTracer::start() {
  available_ = false;
  reason_ = "built without CUPTI (no CUDA toolkit when infergate was built)";
  return false;
}

void CuptiTracer::stop() { running_ = false; }

#endif  // INFERGATE_HAVE_CUPTI

}  // namespace infergate
