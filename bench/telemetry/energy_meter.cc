#include "bench/telemetry/energy_meter.h"

#include <stdexcept>

#include "common/util/clock.h"

namespace infergate {
namespace {

// "GPU 0 (NVIDIA H100 80GB HBM3)", or "GPU 0" when NVML gives no name.
std::string gpu_label(const Nvml& nvml, int index) {
  std::string label = "GPU " + std::to_string(index);
  if (std::optional<std::string> name = nvml.device_name(index)) label += " (" + *name + ")";
  return label;
}

}  // namespace

EnergyMeter::EnergyMeter(const std::string& powercap_root, const Nvml* nvml) : nvml_(nvml) {
  powercap_ = PowercapEnergy::open(powercap_root, &powercap_reason_);
}

void EnergyMeter::start() {
  std::lock_guard<std::mutex> lock(mu_);
  started_ = true;
  start_ns_ = now_ns();
  cpu_uj_ = 0;
  cpu_last_uj_.reset();
  cpu_reason_ = powercap_reason_;
  if (powercap_) cpu_last_uj_ = powercap_->read_uj(&cpu_reason_);
  start_gpu();
}

void EnergyMeter::poll() {
  std::lock_guard<std::mutex> lock(mu_);
  if (started_) poll_cpu();
}

EnergyReading EnergyMeter::stop() {
  std::lock_guard<std::mutex> lock(mu_);
  if (!started_) throw std::logic_error("EnergyMeter::stop() without start()");
  started_ = false;
  poll_cpu();
  EnergyReading reading;
  reading.seconds = static_cast<double>(now_ns() - start_ns_) * 1e-9;
  if (cpu_last_uj_) {
    reading.cpu_joules = static_cast<double>(cpu_uj_) * 1e-6;
    reading.cpu_zones = static_cast<int>(powercap_->zones().size());
  } else {
    reading.cpu_unavailable = cpu_reason_;
  }
  stop_gpu(&reading);
  return reading;
}

void EnergyMeter::poll_cpu() {
  if (!cpu_last_uj_) return;  // no CPU figure in this window
  std::optional<std::vector<uint64_t>> now = powercap_->read_uj(&cpu_reason_);
  if (!now) {
    cpu_last_uj_.reset();  // a gap in the counters: the window's CPU figure is lost
    return;
  }
  const std::vector<PowercapZone>& zones = powercap_->zones();
  for (size_t i = 0; i < zones.size(); ++i) {
    cpu_uj_ += energy_delta_uj((*cpu_last_uj_)[i], (*now)[i], zones[i].max_energy_range_uj);
  }
  cpu_last_uj_ = std::move(now);
}

void EnergyMeter::start_gpu() {
  gpu_start_joules_.clear();
  gpu_reason_.clear();
  if (nvml_ == nullptr) {
    gpu_reason_ = "NVML not loaded";
    return;
  }
  if (!nvml_->available()) {
    gpu_reason_ = nvml_->unavailable_reason();
    if (gpu_reason_.empty()) gpu_reason_ = "NVML unavailable";
    return;
  }
  for (int i = 0; i < nvml_->device_count(); ++i) {
    std::string why_not;
    const std::optional<double> joules = nvml_->total_energy_joules(i, &why_not);
    if (!joules) {
      // A sum missing a GPU would be a wrong figure, not a smaller one.
      gpu_reason_ = gpu_label(*nvml_, i) + ": " + why_not;
      gpu_start_joules_.clear();
      return;
    }
    gpu_start_joules_.push_back(*joules);
  }
}

void EnergyMeter::stop_gpu(EnergyReading* reading) const {
  if (!gpu_reason_.empty()) {
    reading->gpu_unavailable = gpu_reason_;
    return;
  }
  double total = 0;
  for (size_t i = 0; i < gpu_start_joules_.size(); ++i) {
    const int index = static_cast<int>(i);
    std::string why_not;
    const std::optional<double> joules = nvml_->total_energy_joules(index, &why_not);
    if (!joules || *joules < gpu_start_joules_[i]) {
      reading->gpu_unavailable =
          gpu_label(*nvml_, index) + ": " +
          (joules ? "the energy counter went backwards (driver reloaded?)" : why_not);
      return;
    }
    total += *joules - gpu_start_joules_[i];
  }
  reading->gpu_joules = total;
  reading->gpus = static_cast<int>(gpu_start_joules_.size());
}

}  // namespace infergate
