#include "bench/telemetry/nvml.h"

#include <dlfcn.h>

#include <cstring>

namespace infergate {
namespace {

// NVML's ABI, as declared in nvml.h (not needed to build): nvmlReturn_t is an int-sized enum,
// nvmlDevice_t an opaque pointer, and these two structs are the v1 layouts.
constexpr int kNvmlSuccess = 0;
constexpr unsigned int kVersionBufferSize = 96;  // >= NVML_SYSTEM_*_VERSION_BUFFER_SIZE (80)
constexpr unsigned int kNameBufferSize = 96;     // NVML_DEVICE_NAME_V2_BUFFER_SIZE
using NvmlDevice = void*;
struct NvmlMemory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
struct NvmlUtilization {
  unsigned int gpu;
  unsigned int memory;
};
// nvmlProcessInfo_v2_t, which the _v2 and _v3 process queries both fill.
struct NvmlProcessInfo {
  unsigned int pid;
  unsigned long long used_gpu_memory;  // kNvmlValueNotAvailable when the driver cannot tell
  unsigned int gpu_instance_id;
  unsigned int compute_instance_id;
};
constexpr unsigned long long kNvmlValueNotAvailable = ~0ull;
constexpr unsigned int kMaxGpuProcesses = 1024;

// dlsym's object pointer to a function pointer, the POSIX-sanctioned way.
template <typename F>
bool resolve(void* library, const char* name, F* out) {
  static_assert(sizeof(F) == sizeof(void*));
  void* symbol = dlsym(library, name);
  std::memcpy(out, &symbol, sizeof(symbol));
  return symbol != nullptr;
}

}  // namespace

struct Nvml::Api {
  int (*init)() = nullptr;
  int (*shutdown)() = nullptr;
  int (*device_count)(unsigned int*) = nullptr;
  int (*device_handle)(unsigned int, NvmlDevice*) = nullptr;
  int (*memory_info)(NvmlDevice, NvmlMemory*) = nullptr;
  int (*utilization)(NvmlDevice, NvmlUtilization*) = nullptr;
  int (*driver_version)(char*, unsigned int) = nullptr;
  int (*nvml_version)(char*, unsigned int) = nullptr;
  int (*device_name)(NvmlDevice, char*, unsigned int) = nullptr;                    // optional
  int (*compute_processes)(NvmlDevice, unsigned int*, NvmlProcessInfo*) = nullptr;  // optional
  int (*total_energy)(NvmlDevice, unsigned long long*) = nullptr;                   // optional
  const char* (*error_string)(int) = nullptr;                                       // optional

  std::string error(const char* call, int rc) const {
    return std::string(call) +
           " failed: " + (error_string ? error_string(rc) : "NVML error " + std::to_string(rc));
  }
};

Nvml::Nvml(const std::string& library) : api_(std::make_unique<Api>()) {
  if (!load(library)) return;
  if (int rc = api_->init(); rc != kNvmlSuccess) {
    reason_ = api_->error("nvmlInit_v2", rc);
    return;
  }
  initialized_ = true;
  unsigned int count = 0;
  if (int rc = api_->device_count(&count); rc != kNvmlSuccess) {
    reason_ = api_->error("nvmlDeviceGetCount_v2", rc);
    return;
  }
  for (unsigned int i = 0; i < count; ++i) {
    NvmlDevice device = nullptr;
    if (api_->device_handle(i, &device) == kNvmlSuccess) devices_.push_back(device);
  }
  if (devices_.empty()) reason_ = "NVML sees no usable NVIDIA GPU";
}

Nvml::~Nvml() {
  if (initialized_) api_->shutdown();
  if (library_ != nullptr) dlclose(library_);
}

bool Nvml::load(const std::string& library) {
  library_ = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library_ == nullptr) {
    const char* error = dlerror();
    reason_ = error ? error : library + ": cannot be loaded";
    return false;
  }
  Api& a = *api_;
  resolve(library_, "nvmlDeviceGetName", &a.device_name);
  resolve(library_, "nvmlErrorString", &a.error_string);
  resolve(library_, "nvmlDeviceGetTotalEnergyConsumption", &a.total_energy);
  if (!resolve(library_, "nvmlDeviceGetComputeRunningProcesses_v3", &a.compute_processes)) {
    resolve(library_, "nvmlDeviceGetComputeRunningProcesses_v2", &a.compute_processes);
  }
  const bool ok = resolve(library_, "nvmlInit_v2", &a.init) &&
                  resolve(library_, "nvmlShutdown", &a.shutdown) &&
                  resolve(library_, "nvmlDeviceGetCount_v2", &a.device_count) &&
                  resolve(library_, "nvmlDeviceGetHandleByIndex_v2", &a.device_handle) &&
                  resolve(library_, "nvmlDeviceGetMemoryInfo", &a.memory_info) &&
                  resolve(library_, "nvmlDeviceGetUtilizationRates", &a.utilization) &&
                  resolve(library_, "nvmlSystemGetDriverVersion", &a.driver_version) &&
                  resolve(library_, "nvmlSystemGetNVMLVersion", &a.nvml_version);
  if (!ok) reason_ = library + ": missing NVML entry points (driver too old?)";
  return ok;
}

std::optional<std::string> Nvml::driver_version() const {
  char buffer[kVersionBufferSize] = {};
  if (!initialized_ || api_->driver_version(buffer, kVersionBufferSize) != kNvmlSuccess) {
    return std::nullopt;
  }
  return std::string(buffer);
}

std::optional<std::string> Nvml::nvml_version() const {
  char buffer[kVersionBufferSize] = {};
  if (!initialized_ || api_->nvml_version(buffer, kVersionBufferSize) != kNvmlSuccess) {
    return std::nullopt;
  }
  return std::string(buffer);
}

std::optional<std::string> Nvml::device_name(int index) const {
  char buffer[kNameBufferSize] = {};
  if (index < 0 || index >= device_count() || api_->device_name == nullptr ||
      api_->device_name(devices_[static_cast<size_t>(index)], buffer, kNameBufferSize) !=
          kNvmlSuccess) {
    return std::nullopt;
  }
  return std::string(buffer);
}

std::optional<GpuReading> Nvml::read(int index) const {
  if (index < 0 || index >= device_count()) return std::nullopt;
  NvmlDevice device = devices_[static_cast<size_t>(index)];
  NvmlMemory memory{};
  if (api_->memory_info(device, &memory) != kNvmlSuccess) return std::nullopt;
  GpuReading reading;
  reading.memory_used_bytes = static_cast<double>(memory.used);
  reading.memory_total_bytes = static_cast<double>(memory.total);
  NvmlUtilization utilization{};
  if (api_->utilization(device, &utilization) == kNvmlSuccess) {
    reading.utilization_pct = utilization.gpu;
  }
  return reading;
}

std::optional<double> Nvml::process_gpu_memory_bytes(int pid) const {
  if (!available() || api_->compute_processes == nullptr) return std::nullopt;
  double total = 0;
  std::vector<NvmlProcessInfo> processes(kMaxGpuProcesses);
  for (NvmlDevice device : devices_) {
    unsigned int count = kMaxGpuProcesses;
    const int rc = api_->compute_processes(device, &count, processes.data());
    if (rc != kNvmlSuccess) return std::nullopt;  // also: over 1024 processes on one GPU
    for (unsigned int i = 0; i < count && i < kMaxGpuProcesses; ++i) {
      const NvmlProcessInfo& p = processes[i];
      if (int(p.pid) == pid && p.used_gpu_memory != kNvmlValueNotAvailable) {
        total += double(p.used_gpu_memory);
      }
    }
  }
  return total;
}

std::optional<double> Nvml::total_energy_joules(int index, std::string* why_not) const {
  std::string reason;
  unsigned long long millijoules = 0;
  if (index < 0 || index >= device_count()) {
    reason = "no GPU " + std::to_string(index) + " in NVML";
  } else if (api_->total_energy == nullptr) {
    reason = "nvmlDeviceGetTotalEnergyConsumption: not in this NVML library (driver too old)";
  } else if (int rc = api_->total_energy(devices_[static_cast<size_t>(index)], &millijoules);
             rc != kNvmlSuccess) {
    reason = api_->error("nvmlDeviceGetTotalEnergyConsumption", rc);
  } else {
    return static_cast<double>(millijoules) * 1e-3;
  }
  if (why_not != nullptr) *why_not = std::move(reason);
  return std::nullopt;
}

}  // namespace infergate
