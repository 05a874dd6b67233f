// NVIDIA's management library (NVML), loaded at run time with dlopen("libnvidia-ml.so.1") so
// infergate builds and runs on machines without a GPU or driver: there it is simply
// unavailable, with the reason. The few entry points used are declared in nvml.cc.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

struct GpuReading {
  double memory_used_bytes = 0;
  double memory_total_bytes = 0;
  std::optional<double> utilization_pct;  // busy share of the last sample period; absent on
                                          // devices that do not report it (e.g. MIG slices)
};

class Nvml {
 public:
  // Loads `library` and initializes NVML. Never throws: failure leaves it unavailable.
  explicit Nvml(const std::string& library = "libnvidia-ml.so.1");
  ~Nvml();  // nvmlShutdown, dlclose
  Nvml(const Nvml&) = delete;
  Nvml& operator=(const Nvml&) = delete;

  // True when NVML initialized and sees at least one GPU. NVML lists every GPU in the machine;
  // it does not honour CUDA_VISIBLE_DEVICES.
  bool available() const { return !devices_.empty(); }
  // Why not available ("" when it is), e.g. "libnvidia-ml.so.1: cannot open shared object...".
  const std::string& unavailable_reason() const { return reason_; }

  int device_count() const { return static_cast<int>(devices_.size()); }
  // Present whenever NVML initialized, even with no GPU.
  std::optional<std::string> driver_version() const;
  std::optional<std::string> nvml_version() const;
  std::optional<std::string> device_name(int index) const;
  // Memory in use and utilization now; nullopt if the device does not answer. Thread-safe.
  std::optional<GpuReading> read(int index) const;
  // GPU memory process `pid` uses, summed over the GPUs where it runs compute work
  // (nvmlDeviceGetComputeRunningProcesses): 0 when it uses none; nullopt when NVML is
  // unavailable or cannot list processes (an old driver, a MIG setup hiding them). Thread-safe.
  std::optional<double> process_gpu_memory_bytes(int pid) const;
  // Energy device `index` has used since the driver last loaded, in joules (NVML counts
  // millijoules; Volta and newer). nullopt when the driver lacks the entry point or the device
  // does not answer (NOT_SUPPORTED before Volta), with the reason in `why_not` if given.
  // Thread-safe.
  std::optional<double> total_energy_joules(int index, std::string* why_not = nullptr) const;

 private:
  struct Api;
  bool load(const std::string& library);

  std::unique_ptr<Api> api_;
  void* library_ = nullptr;
  bool initialized_ = false;
  std::vector<void*> devices_;  // nvmlDevice_t handles
  std::string reason_;
};

}  // namespace infergate
