// GPU kernels and copies (from CUPTI) in the Chrome trace: one named track per device and
// stream, next to the NVTX threads and the request lanes. Built from constructed spans, so it
// runs without a GPU; no NVTX call is made here.
#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "bench/trace/chrome_trace.h"

using namespace infergate;

namespace {

constexpr int64_t kUs = 1000;  // ns
constexpr int64_t kT0 = 7'000'000'000;

// Track name by tid, from the thread_name metadata.
std::map<int64_t, std::string> track_names(const nlohmann::json& trace) {
  std::map<int64_t, std::string> names;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") == "M" && e.at("name") == "thread_name") {
      names[e.at("tid").get<int64_t>()] = e.at("args").at("name");
    }
  }
  return names;
}

const nlohmann::json* event(const nlohmann::json& trace, const std::string& name) {
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X" && e.at("name") == name) return &e;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("GPU spans go on one track per device and stream with their times and category") {
  ChromeTrace t;
  t.origin_ns = kT0;
  t.end_ns = kT0 + 1000 * kUs;
  t.pid = 42;
  t.gpu_spans = {
      {"void gemm<float>(float const*)", "cuda_kernel", kT0 + 10 * kUs, kT0 + 25 * kUs, 0, 7},
      {"rms_norm", "cuda_kernel", kT0 + 30 * kUs, kT0 + 31 * kUs, 0, 7},
      {"[CUDA memcpy HtoD]", "cuda_memcpy", kT0 + 5 * kUs, kT0 + 8 * kUs, 0, 13},
      {"attention", "cuda_kernel", kT0 + 12 * kUs, kT0 + 20 * kUs, 1, 7}};
  t.requests = {{0, kT0, kT0, kT0 + 100 * kUs, kT0 + 200 * kUs, "ok", {}}};
  const nlohmann::json trace = nlohmann::json::parse(chrome_trace_json(t));
  const std::map<int64_t, std::string> names = track_names(trace);

  const nlohmann::json* gemm = event(trace, "void gemm<float>(float const*)");
  const nlohmann::json* norm = event(trace, "rms_norm");
  const nlohmann::json* copy = event(trace, "[CUDA memcpy HtoD]");
  const nlohmann::json* attention = event(trace, "attention");
  REQUIRE(gemm);
  REQUIRE(norm);
  REQUIRE(copy);
  REQUIRE(attention);
  CHECK(names.at(gemm->at("tid")) == "GPU 0 stream 7");
  CHECK(norm->at("tid") == gemm->at("tid"));
  CHECK(names.at(copy->at("tid")) == "GPU 0 stream 13");
  CHECK(names.at(attention->at("tid")) == "GPU 1 stream 7");
  CHECK(gemm->at("cat") == "cuda_kernel");
  CHECK(copy->at("cat") == "cuda_memcpy");
  CHECK(gemm->at("pid") == 42);
  CHECK(gemm->at("ts").get<double>() == Approx(10.0));
  CHECK(gemm->at("dur").get<double>() == Approx(15.0));
  // GPU tracks lie between the real threads and the request lanes.
  const int64_t gpu_tid = gemm->at("tid").get<int64_t>();
  CHECK(gpu_tid >= kGpuTrackTidBase);
  CHECK(gpu_tid < kRequestLaneTidBase);
  const nlohmann::json* request = event(trace, "request 0");
  REQUIRE(request);
  CHECK(names.at(request->at("tid")) == "requests 0");
}

TEST_CASE("a trace without GPU spans has no GPU tracks") {
  ChromeTrace t;
  t.origin_ns = kT0;
  t.end_ns = kT0 + kUs;
  for (const auto& [tid, name] : track_names(nlohmann::json::parse(chrome_trace_json(t)))) {
    CHECK(name.rfind("GPU", 0) == std::string::npos);
  }
}
