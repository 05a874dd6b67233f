#include "bench/results/manifest.h"

#include "kernels/cpu/cpu_features.h"
#include "kernels/cpu/kernel_choices.h"

#include <sched.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <fstream>
#include <optional>

#include "bench/telemetry/nvml.h"
#include "infergate_build_info.h"  // generated: bench/results/build_info.cmake

namespace infergate {
namespace {

nlohmann::json or_null(const std::optional<std::string>& value) {
  return value ? nlohmann::json(*value) : nlohmann::json(nullptr);
}

nlohmann::json string_or_null(const char* value) {
  return *value ? nlohmann::json(value) : nlohmann::json(nullptr);
}

// The value after "key<whitespace>:" on the first line of a /proc file that starts with key.
std::optional<std::string> proc_field(const char* path, const std::string& key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0) continue;
    const size_t colon = line.find(':', key.size());
    if (colon == std::string::npos) continue;
    const size_t start = line.find_first_not_of(" \t", colon + 1);
    return start == std::string::npos ? std::string() : line.substr(start);
  }
  return std::nullopt;
}

nlohmann::json memory_bytes() {
  const std::optional<std::string> total = proc_field("/proc/meminfo", "MemTotal");  // "N kB"
  if (!total) return nullptr;
  return std::stoull(*total) * 1024;
}

nlohmann::json affinity_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof(set), &set) != 0) return nullptr;
  return CPU_COUNT(&set);
}

nlohmann::json git_json() {
  const int dirty = build_info::kGitDirty;
  return {{"commit", build_info::kGitCommit},
          {"dirty", dirty < 0 ? nlohmann::json(nullptr) : nlohmann::json(dirty == 1)}};
}

nlohmann::json build_json() {
  return {{"infergate_version", build_info::kVersion},
          {"type", build_info::kBuildType},
          {"compiler", build_info::kCompiler},
          {"cxx_flags", build_info::kCxxFlags},
          {"cuda_toolkit", string_or_null(build_info::kCudaToolkitVersion)}};
}

nlohmann::json gpu_json() {
  const Nvml nvml;
  nlohmann::json devices = nlohmann::json::array();
  for (int i = 0; i < nvml.device_count(); ++i) {
    const std::optional<GpuReading> reading = nvml.read(i);
    devices.push_back({{"name", or_null(nvml.device_name(i))},
                       {"memory_bytes", reading ? nlohmann::json(reading->memory_total_bytes)
                                                : nlohmann::json(nullptr)}});
  }
  return {{"driver_version", or_null(nvml.driver_version())},
          {"nvml_version", or_null(nvml.nvml_version())},
          {"devices", devices},
          {"unavailable_reason",
           nvml.available() ? nlohmann::json(nullptr) : nlohmann::json(nvml.unavailable_reason())}};
}

// The CPU kernels' dispatch level, what the CPU has and what runs (INFERGATE_ISA may lower it),
// and the kernel each op runs at that level (docs/performance.md, "ISA dispatch").
nlohmann::json cpu_isa() {
  nlohmann::json kernels = nlohmann::json::object();
  for (const CpuKernelChoice& c : cpu_kernel_choices(active_isa())) kernels[c.op] = c.kernel;
  return {{"detected", isa_name(detected_isa())},
          {"active", isa_name(active_isa())},
          {"kernels", kernels}};
}

nlohmann::json host_json() {
  utsname os{};
  const bool named = uname(&os) == 0;
  auto field = [&](const char* value) { return named ? nlohmann::json(value) : nullptr; };
  return {{"cpu_model", or_null(proc_field("/proc/cpuinfo", "model name"))},
          {"logical_cores", sysconf(_SC_NPROCESSORS_ONLN)},
          {"affinity_cores", affinity_cores()},
          {"memory_bytes", memory_bytes()},
          {"cpu_isa", cpu_isa()},
          {"os",
           {{"sysname", field(os.sysname)},
            {"release", field(os.release)},
            {"machine", field(os.machine)}}},
          {"hostname", field(os.nodename)}};
}

}  // namespace

nlohmann::json build_manifest(const std::string& workload_hash, uint64_t seed) {
  return {{"workload_hash", workload_hash}, {"seed", seed},      {"git", git_json()},
          {"build", build_json()},          {"gpu", gpu_json()}, {"host", host_json()}};
}

}  // namespace infergate
