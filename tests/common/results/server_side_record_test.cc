// The repetition's `server` section (common/results/server_side_record.h): its writer gives the
// documented shape (docs/results-schema.md, "The server's side"), its reader takes back all the
// writer writes, and a member of the wrong type is an error naming its JSON path.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "common/results/server_side_record.h"

using namespace infergate;
using nlohmann::json;

namespace {

const char* const kPath = "$.points[0].repetitions[0].server";

ServerSideRecord read_back(const json& j) { return read_server_side_record({j, "r.json", kPath}); }

// Through the file's text too: doubles that are whole numbers come back as doubles.
json round_trip(const ServerSideRecord& s) {
  const json text = json::parse(to_json(s).dump());
  return to_json(read_back(text));
}

// Every optional member filled.
ServerSideRecord full() {
  ServerSideRecord s;
  s.resource_source = "server pid 4242";
  s.metrics = {"http://127.0.0.1:8000/metrics",
               true,
               false,
               "GET http://127.0.0.1:8000/metrics: HTTP 404",
               "vllm",
               500,
               31,
               2,
               "timed out",
               ServerLatency{14, 9.8, 8.1, 19.0, 19.8},
               ServerLatency{98, 1.9, 1.6, 4.2, 4.8}};
  s.process = {4242,
               "server_metrics.pid",
               "the process could not be read",
               1.2e8,
               95.1,
               "/proc/PID/stat utime + stime, clock ticks of 1/100 s",
               2e9};
  s.transport = {"/health", 20, 0.21, 0.35, "connection refused"};
  s.ttft_cross_check =
      TtftCrossCheck{10.4, 14, 9.8, 14, 0.6, 2.05, false, "the difference is within the bound"};
  ServerTimelineSample all{-1.2, 0.0, 0.0, 0.0, 0.0, 0.5, 1.1e8, 97.0, 0.0};
  ServerTimelineSample running;
  running.t_ms = 3.5;
  running.running = 2.0;
  s.timeline = {all, running};
  return s;
}

// Every optional member empty (null or absent, as the writer has it).
ServerSideRecord empty() {
  ServerSideRecord s;
  s.resource_source = "harness";
  s.metrics.url = "http://10.0.0.1:8000/metrics";
  s.process.unavailable_reason = "the server is not on this host";
  s.process.cpu_time_source = "/proc/PID/stat utime + stime, clock ticks of 1/100 s";
  s.transport.path = "/health";
  s.timeline.emplace_back().t_ms = 0.5;
  return s;
}

}  // namespace

TEST_CASE("the server section is written in the documented shape") {
  const json expected = json::parse(R"({
    "resource_source": "server pid 4242",
    "metrics": {"url": "http://127.0.0.1:8000/metrics", "scraped": true, "available": false,
                "unavailable_reason": "GET http://127.0.0.1:8000/metrics: HTTP 404",
                "dialect": "vllm", "interval_ms": 500, "scrapes": 31, "failed_scrapes": 2,
                "first_failure": "timed out",
                "ttft_ms": {"count": 14, "mean": 9.8, "p50": 8.1, "p95": 19.0, "p99": 19.8},
                "itl_ms": {"count": 98, "mean": 1.9, "p50": 1.6, "p95": 4.2, "p99": 4.8}},
    "process": {"pid": 4242, "found_by": "server_metrics.pid",
                "unavailable_reason": "the process could not be read",
                "peak_rss_bytes": 1.2e8, "cpu_pct_mean": 95.1,
                "cpu_time_source": "/proc/PID/stat utime + stime, clock ticks of 1/100 s",
                "peak_gpu_memory_bytes": 2e9},
    "transport": {"path": "/health", "round_trips": 20, "rtt_p50_ms": 0.21, "rtt_p95_ms": 0.35,
                  "failure": "connection refused"},
    "ttft_cross_check": {"client_mean_ms": 10.4, "client_count": 14, "server_mean_ms": 9.8,
                         "server_count": 14, "difference_ms": 0.6, "bound_ms": 2.05,
                         "disagreement": false, "reason": "the difference is within the bound"},
    "timeline": [{"t_ms": -1.2, "running": 0.0, "waiting": 0.0, "kv_usage": 0.0,
                  "preemptions": 0.0, "prefix_cache_hit_rate": 0.5, "rss_bytes": 1.1e8,
                  "cpu_pct": 97.0, "gpu_memory_bytes": 0.0},
                 {"t_ms": 3.5, "running": 2.0}]
  })");
  // dump() tells integers from doubles (500 from 500.0), which == does not
  CHECK(to_json(full()).dump() == expected.dump());

  const json e = to_json(empty());
  CHECK(e["metrics"]["unavailable_reason"].is_null());
  CHECK(e["metrics"]["ttft_ms"].is_null());
  CHECK(e["process"]["pid"].is_null());
  CHECK(e["process"]["peak_gpu_memory_bytes"].is_null());
  CHECK(e["transport"]["failure"].is_null());
  CHECK(e["ttft_cross_check"].is_null());
  CHECK(e["timeline"][0] == json{{"t_ms", 0.5}});  // figures the server lacks are absent
}

TEST_CASE("the server section reads back what its writer wrote") {
  for (const ServerSideRecord& s : {full(), empty()}) {
    const json written = to_json(s);
    INFO(written.dump());
    CHECK(to_json(read_back(written)).dump() == written.dump());
    CHECK(round_trip(s).dump() == written.dump());
  }
}

TEST_CASE("a server section member of the wrong type names its path") {
  json j = to_json(full());
  j["metrics"]["ttft_ms"]["p95"] = "19";
  CHECK_THROWS_AS(read_back(j), ResultsError);
  CHECK_THROWS_WITH(read_back(j),
                    "r.json: $.points[0].repetitions[0].server.metrics.ttft_ms.p95: expected a "
                    "number, got string");

  j = to_json(full());
  j["timeline"][1]["rss_bytes"] = true;
  CHECK_THROWS_WITH(read_back(j), Catch::StartsWith("r.json: $.points[0].repetitions[0].server"
                                                    ".timeline[1].rss_bytes: expected a number"));
  j = to_json(full());
  j["process"]["pid"] = 42.5;
  CHECK_THROWS_WITH(read_back(j), Catch::Contains(".server.process.pid: 42.5 is not a whole"));
  j = to_json(full());
  j["ttft_cross_check"] = "agree";
  CHECK_THROWS_WITH(read_back(j), Catch::Contains(".server.ttft_cross_check: expected an object"));
}
