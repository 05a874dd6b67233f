// Shared by the HTTP target tests: the binaries under test, servers started from them, and
// workloads run in-process against those servers.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/dataset/bench_request.h"
#include "bench/workload/workload.h"
#include "tests/http/server_process.h"

namespace infergate::test {

// `infergate serve --model tiny --port 0 --threads 2` plus `extra` flags.
std::unique_ptr<ServerProcess> start_serve(const std::vector<std::string>& extra = {});
// `infergate_http_echo --port 0` plus `extra` flags.
std::unique_ptr<ServerProcess> start_echo(const std::vector<std::string>& extra = {});

// A workload against `url`: `patch` (merged into a small open-loop base with per-request
// records) sets the rest.
Workload http_workload(const std::string& url, const nlohmann::json& patch);

// Runs `w` quietly and returns the results file as written and read back.
nlohmann::json run_and_read_back(const Workload& w);

// The requests the run sent, in index order (the dataset cycled as run_workload does).
std::vector<BenchRequest> sent_requests(const Workload& w, int32_t vocab_size);

// The measured requests of the first repetition's records.
std::vector<nlohmann::json> measured_records(const nlohmann::json& results);

}  // namespace infergate::test
