// The reproducibility manifest every results file carries: which code (git commit, dirty flag),
// built how (type, compiler, flags, CUDA toolkit), ran where (driver, GPUs, CPU, cores, memory,
// OS, host), on which workload (its hash) and seed. Keys: docs/results-schema.md, "Telemetry and
// manifest".
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

// Build facts come from a header generated at build time (bench/results/build_info.cmake);
// machine facts are read now. Loads NVML for the driver and GPU fields (null without one).
nlohmann::json build_manifest(const std::string& workload_hash, uint64_t seed);

}  // namespace infergate
