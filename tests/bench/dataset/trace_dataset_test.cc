// Traces in their public formats: read, windowed, sped up and capped; Mooncake's hash ids give
// exactly the prefix sharing they describe; bad traces are refused naming the file, the line and
// the field, and a huge one costs no more memory than one line.
#include <catch2/catch.hpp>

#include <sys/resource.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/dataset/dataset_error.h"
#include "bench/dataset/trace_dataset.h"
#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "tests/temp_dir.h"

using namespace infergate;

namespace {

std::string sample(const std::string& name) {
  return std::string(INFERGATE_SOURCE_DIR) + "/workloads/traces/" + name;
}

DatasetSpec trace_spec(const std::string& format) {
  DatasetSpec d;
  d.type = "trace";
  d.format = format;
  return d;
}

std::vector<BenchRequest> load(const std::string& file, const DatasetSpec& d) {
  return load_trace_dataset(file, d, 7, 32000);
}

std::string write(infergate::testing::TempDir& dir, const std::string& name,
                  const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path) << text;
  return path;
}

long peak_rss_kb() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  return u.ru_maxrss;
}

}  // namespace

TEST_CASE("each sample trace reads with its lengths and its times from the first record") {
  const std::vector<BenchRequest> m = load(sample("mooncake-sample.jsonl"), trace_spec("mooncake"));
  REQUIRE(m.size() == 48);
  CHECK(m[0].arrival_s == 0);
  CHECK(m[1].arrival_s == Approx((292 - 31) / 1000.0));  // milliseconds in the file
  CHECK(m[0].prompt.size() == 809);
  CHECK(m[0].max_tokens == 40);
  CHECK(m[0].prompt[0] == 1);  // BOS

  const std::vector<BenchRequest> a = load(sample("azure-sample.csv"), trace_spec("azure"));
  REQUIRE(a.size() == 40);
  CHECK(a[1].arrival_s == Approx(47.1992090 - 46.9231940).margin(1e-6));
  CHECK(a[1].prompt.size() == 682);
  CHECK(a[1].max_tokens == 26);

  // Two failed BurstGPT rows (no response tokens) are left out.
  const std::vector<BenchRequest> b = load(sample("burstgpt-sample.csv"), trace_spec("burstgpt"));
  CHECK(b.size() == 38);
  CHECK(b[1].arrival_s == Approx(1000.305 - 1000.197).margin(1e-9));
  for (size_t i = 1; i < b.size(); ++i) CHECK(b[i].arrival_s >= b[i - 1].arrival_s);
}

TEST_CASE("Mooncake hash ids share exactly the blocks they name") {
  const std::vector<BenchRequest> m = load(sample("mooncake-sample.jsonl"), trace_spec("mooncake"));
  // Records 0 and 8 both start with hash id 0 (a 512-token system prompt), then their own block.
  const std::vector<int32_t>& a = m[0].prompt;
  const std::vector<int32_t>& b = m[8].prompt;
  REQUIRE(a.size() > 600);
  REQUIRE(b.size() > 600);
  CHECK(std::equal(a.begin(), a.begin() + 512, b.begin()));
  CHECK_FALSE(std::equal(a.begin() + 512, a.begin() + 600, b.begin() + 512));
  // Record 1 starts with hash id 1: nothing in common but BOS.
  CHECK_FALSE(std::equal(a.begin() + 1, a.begin() + 64, m[1].prompt.begin() + 1));
  // The same ids make the same tokens whatever the record.
  CHECK(a[100] == trace_block_token(7, 0, 100, 32000));
}

TEST_CASE("a trace's window, speed-up and request cap") {
  DatasetSpec d = trace_spec("mooncake");
  const std::vector<BenchRequest> all = load(sample("mooncake-sample.jsonl"), d);
  d.trace.speedup = 4;
  const std::vector<BenchRequest> fast = load(sample("mooncake-sample.jsonl"), d);
  REQUIRE(fast.size() == all.size());
  for (size_t i = 0; i < all.size(); ++i) CHECK(fast[i].arrival_s == Approx(all[i].arrival_s / 4));
  d.trace.speedup = 1;
  d.trace.start_s = 4;
  d.trace.end_s = 8;
  const std::vector<BenchRequest> window = load(sample("mooncake-sample.jsonl"), d);
  REQUIRE_FALSE(window.empty());
  CHECK(window.size() < all.size() / 2);
  CHECK(window[0].arrival_s == 0);  // the run starts with the window's first request
  for (const BenchRequest& r : window) CHECK(r.arrival_s < 4);
  d.trace.max_requests = 3;
  CHECK(load(sample("mooncake-sample.jsonl"), d).size() == 3);
  d.trace.start_s = 1000;
  d.trace.end_s = 0;
  CHECK_THROWS_WITH(
      load(sample("mooncake-sample.jsonl"), d),
      Catch::Contains("no request in the window") && Catch::Contains("48 records read"));
}

TEST_CASE("bad traces are refused naming the file, the line and the field") {
  infergate::testing::TempDir dir;
  const auto refused = [&](const std::string& format, const std::string& text) {
    const std::string path = write(dir, "t." + format, text);
    try {
      load(path, trace_spec(format));
    } catch (const DatasetError& e) {
      return std::string(e.what());
    }
    FAIL("accepted: " << text);
    return std::string();
  };
  const std::string ok =
      R"({"timestamp": 0, "input_length": 10, "output_length": 2, "hash_ids": [1]})";
  CHECK_THAT(
      refused("mooncake",
              ok + "\n" +
                  R"({"timestamp": -5, "input_length": 10, "output_length": 2, "hash_ids": [1]})"),
      Catch::Contains("t.mooncake:2:") &&
          Catch::Contains("\"timestamp\" must be a number in [0, 31536000000]"));
  // Timestamps: sorted, finite, at most a year in (milliseconds here), each key once.
  const auto mooncake_at = [](const std::string& ts) {
    return R"({"timestamp": )" + ts +
           R"(, "input_length": 10, "output_length": 2, "hash_ids": [1]})";
  };
  CHECK_THAT(refused("mooncake", mooncake_at("5") + "\n" + mooncake_at("4")),
             Catch::Contains("t.mooncake:2:") && Catch::Contains("sorted by time"));
  for (const std::string ts : {"1e15", "1e308", "1e309", "31536000001"}) {
    CHECK_THAT(refused("mooncake", ok + "\n" + mooncake_at(ts)),
               Catch::Contains("t.mooncake:2:") && Catch::Contains("\"timestamp\"") &&
                   (Catch::Contains("31536000000") || Catch::Contains("out of range")));
  }
  CHECK_THAT(refused("mooncake", R"({"timestamp": 0, "timestamp": 1e308, "input_length": 10,)"
                                 R"( "output_length": 2, "hash_ids": [1]})"),
             Catch::Contains("t.mooncake:1:") && Catch::Contains("\"timestamp\" appears twice"));
  CHECK_THAT(refused("mooncake", R"({"timestamp": 0, "input_length": 10,)"),
             Catch::Contains("t.mooncake:1: not JSON at byte ") &&
                 Catch::Contains(" of the line: unexpected end of input") &&
                 !Catch::Contains("json.exception"));
  // A replay is held to a day (load.duration_s's limit), a speed-up brings it within.
  CHECK_THAT(refused("mooncake", ok + "\n" + mooncake_at("90000000")),
             Catch::Contains("t.mooncake:2:") && Catch::Contains("may last at most 86400 s") &&
                 Catch::Contains("dataset.speedup"));
  {
    DatasetSpec fast = trace_spec("mooncake");
    fast.trace.speedup = 2;
    const std::vector<BenchRequest> r =
        load(write(dir, "fast.jsonl", ok + "\n" + mooncake_at("90000000")), fast);
    REQUIRE(r.size() == 2);
    CHECK(r[1].arrival_s == Approx(45000));
  }
  CHECK_THAT(refused("mooncake",
                     R"({"timestamp": 0, "input_length": -1, "output_length": 2, "hash_ids": []})"),
             Catch::Contains(":1:") && Catch::Contains("\"input_length\" = -1 must be in [0,"));
  CHECK_THAT(refused("mooncake", R"({"timestamp": 0, "output_length": 2, "hash_ids": [1]})"),
             Catch::Contains("missing field \"input_length\""));
  CHECK_THAT(
      refused("mooncake",
              R"({"timestamp": 0, "input_length": 600, "output_length": 2, "hash_ids": [1]})"),
      Catch::Contains("1 blocks of 512 tokens cover 512 tokens, fewer than \"input_length\" 600"));
  CHECK_THAT(refused("azure", "TIMESTAMP,GeneratedTokens\n2023-11-16 18:15:46.1,5\n"),
             Catch::Contains("t.azure:1:") && Catch::Contains("no column \"ContextTokens\""));
  CHECK_THAT(refused("azure", "TIMESTAMP,ContextTokens,GeneratedTokens\n18:15:46,10,5\n"),
             Catch::Contains(":2:") && Catch::Contains("is not a date and time"));
  CHECK_THAT(
      refused("azure", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-02-30 18:15:46,10,5\n"),
      Catch::Contains(":2:") && Catch::Contains("is not a date and time"));
  CHECK_THAT(refused("azure",
                     "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.1,10,5\n"
                     "9999-12-31 23:59:59.9,10,5\n"),
             Catch::Contains("t.azure:3:") && Catch::Contains("TIMESTAMP is 2.91") &&
                 Catch::Contains("may span at most 365 days"));
  CHECK_THAT(
      refused("azure", "TIMESTAMP,ContextTokens,GeneratedTokens\n2023-11-16 18:15:46.1,ten,5\n"),
      Catch::Contains("ContextTokens = \"ten\" is not an integer"));
  CHECK_THAT(
      refused("burstgpt", "Timestamp,Model,Request tokens,Response tokens\n5,m,10,2\n4,m,10,2\n"),
      Catch::Contains(":3:") && Catch::Contains("sorted by time"));
  CHECK_THAT(refused("burstgpt", "Timestamp,Model,Request tokens,Response tokens\n5,m,10\n"),
             Catch::Contains("\"Response tokens\" is column 4"));
  for (const std::string ts : {"-1", "1e300", "inf", "nan", "31536001"}) {
    CHECK_THAT(refused("burstgpt", "Timestamp,Model,Request tokens,Response tokens\n0,m,10,2\n" +
                                       ts + ",m,10,2\n"),
               Catch::Contains("t.burstgpt:3: Timestamp = "));
  }
}

TEST_CASE("Azure dates before 1970 are as well formed as any") {
  infergate::testing::TempDir dir;
  const std::vector<BenchRequest> r =
      load(write(dir, "old.csv",
                 "TIMESTAMP,ContextTokens,GeneratedTokens\n1969-12-31 23:59:59.5,10,5\n"
                 "1970-01-01 00:00:01,10,5\n"),
           trace_spec("azure"));
  REQUIRE(r.size() == 2);
  CHECK(r[1].arrival_s == Approx(1.5));
}

TEST_CASE("a 10 GB trace with no line end is refused at its first megabyte") {
  infergate::testing::TempDir dir;
  const std::string path = dir.file("huge.jsonl");
  std::ofstream(path).close();
  std::filesystem::resize_file(path, uintmax_t(10) << 30);  // sparse: no disk is used
  const long before = peak_rss_kb();
  CHECK_THROWS_WITH(
      load(path, trace_spec("mooncake")),
      Catch::Contains("huge.jsonl:1:") && Catch::Contains("line longer than 1048576"));
  CHECK(peak_rss_kb() - before < 64 * 1024);  // bounded: one line, not the file
}

TEST_CASE("load mode trace goes with a trace dataset, and a trace with nothing else") {
  const auto workload = [](const nlohmann::json& dataset, const nlohmann::json& load) {
    nlohmann::json doc = {{"schema", "infergate.workload/v1"},
                          {"name", "t"},
                          {"target", {{"type", "echo"}}},
                          {"dataset", dataset},
                          {"load", load}};
    return parse_workload(doc, std::string(INFERGATE_SOURCE_DIR) + "/workloads/t.json",
                          std::string(INFERGATE_SOURCE_DIR) + "/workloads");
  };
  const nlohmann::json trace = {
      {"type", "trace"}, {"format", "azure"}, {"path", "traces/azure-sample.csv"}};
  CHECK(workload(trace, {{"mode", "trace"}}).load.mode == LoadMode::kTrace);
  CHECK_THROWS_WITH(workload(trace, {{"mode", "open"}, {"rate", 1}, {"num_requests", 4}}),
                    Catch::Contains("$.load.mode") && Catch::Contains("set load.mode \"trace\""));
  CHECK_THROWS_WITH(workload({{"type", "synthetic"}}, {{"mode", "trace"}}),
                    Catch::Contains("from a dataset of type \"trace\""));
  CHECK_THROWS_WITH(
      workload(trace, {{"mode", "trace"}, {"num_requests", 4}}),
      Catch::Contains("$.load.num_requests") && Catch::Contains("with mode \"trace\""));
  nlohmann::json no_format = trace;
  no_format.erase("format");
  CHECK_THROWS_WITH(
      workload(no_format, {{"mode", "trace"}}),
      Catch::Contains("$.dataset.format") && Catch::Contains("mooncake, azure or burstgpt"));
  nlohmann::json slow = trace;
  slow["speedup"] = 0;
  CHECK_THROWS_WITH(workload(slow, {{"mode", "trace"}}), Catch::Contains("$.dataset.speedup"));
  nlohmann::json blocks = trace;
  blocks["block_tokens"] = 16;  // a Mooncake setting
  CHECK_THROWS_WITH(workload(blocks, {{"mode", "trace"}}), Catch::Contains("block_tokens"));
}
