#include <algorithm>
#include <catch2/catch.hpp>
#include <regex>
#include <string>
#include <vector>

#include "bench/results/manifest.h"

using namespace infergate;

TEST_CASE("the manifest has every key and a commit that is 40 hex digits or unknown") {
  const nlohmann::json m = build_manifest("sha256:abc", 1234);
  INFO(m.dump(2));
  CHECK(m.at("workload_hash") == "sha256:abc");
  CHECK(m.at("seed") == 1234);

  const std::string commit = m.at("git").at("commit");
  CHECK((std::regex_match(commit, std::regex("[0-9a-f]{40}")) || commit == "unknown"));
  const nlohmann::json& dirty = m.at("git").at("dirty");
  CHECK((dirty.is_boolean() || (dirty.is_null() && commit == "unknown")));

  const nlohmann::json& build = m.at("build");
  for (const char* key : {"infergate_version", "type", "compiler", "cxx_flags"}) {
    CHECK(build.at(key).is_string());
  }
  CHECK((build.at("cuda_toolkit").is_string() || build.at("cuda_toolkit").is_null()));

  const nlohmann::json& gpu = m.at("gpu");
  for (const char* key : {"driver_version", "nvml_version", "unavailable_reason"}) {
    CHECK(gpu.contains(key));
  }
  CHECK(gpu.at("devices").is_array());
  CHECK((gpu.at("devices").empty() == gpu.at("unavailable_reason").is_string()));

  const nlohmann::json& host = m.at("host");
  CHECK(host.at("logical_cores").get<int>() > 0);
  CHECK(host.at("affinity_cores").get<int>() > 0);
  CHECK(host.at("memory_bytes").get<double>() > 1e8);
  CHECK(host.contains("cpu_model"));
  const std::vector<std::string> levels = {"generic", "avx2", "avx512", "amx"};
  const auto rank = [&](const nlohmann::json& name) {
    return std::find(levels.begin(), levels.end(), name.get<std::string>()) - levels.begin();
  };
  CHECK(rank(host.at("cpu_isa").at("detected")) < 4);
  CHECK(rank(host.at("cpu_isa").at("active")) <= rank(host.at("cpu_isa").at("detected")));
  // Each op's kernel, named by the level whose code runs (AMX runs AVX-512 attention).
  for (const char* op : {"linear", "linear quantized", "linear fp8", "attention", "element-wise"}) {
    const std::string kernel = host.at("cpu_isa").at("kernels").at(op).get<std::string>();
    INFO(op << ": " << kernel);
    const auto level = rank(kernel.substr(0, kernel.find(':')));
    CHECK(level < 4);
    CHECK(level <= rank(host.at("cpu_isa").at("active")));
  }
  CHECK(host.at("os").at("sysname") == "Linux");
  CHECK(host.at("os").at("release").is_string());
  CHECK(host.at("os").at("machine").is_string());
  CHECK(host.at("hostname").is_string());
}
