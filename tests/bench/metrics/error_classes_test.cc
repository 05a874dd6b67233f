// Failed requests are grouped by a stable class with the first message of each, from the
// messages the targets really write (bench/targets/openai_target.cc, engine_target.cc).
#include <catch2/catch.hpp>
#include <sstream>

#include "bench/metrics/error_classes.h"
#include "bench/metrics/summarize.h"
#include "bench/results/summary_table.h"

using namespace infergate;

namespace {

RequestRecord failed(uint64_t index, const std::string& error, bool warmup = false) {
  RequestRecord r;
  r.index = index;
  r.warmup = warmup;
  r.scheduled_ns = 1000 + int64_t(index);
  r.sent_ns = r.scheduled_ns;
  r.finished_ns = r.scheduled_ns + 10;
  r.status = RequestStatus::kError;
  r.error = error;
  return r;
}

}  // namespace

TEST_CASE("error messages of the targets map to stable classes") {
  CHECK(error_class_of("cannot connect to http://127.0.0.1:9/v1/completions: Connection refused") ==
        "connection refused");
  CHECK(error_class_of("cannot connect to http://10.0.0.1:80: No route to host") ==
        "cannot connect");
  CHECK(error_class_of("timeout: no complete response within target.timeout_s = 1.0 s (...)") ==
        "timeout");
  CHECK(error_class_of("HTTP 503: overloaded") == "http status 503");
  CHECK(error_class_of("HTTP 429: too many requests") == "http status 429");
  CHECK(error_class_of("connection lost mid-response: end of stream (3 chunks)") ==
        "connection lost");
  CHECK(error_class_of("the response ended without a finish_reason or data: [DONE] (...)") ==
        "incomplete response");
  CHECK(error_class_of("the server reported an error mid-stream: boom") == "stream error");
  CHECK(error_class_of("request '7': prompt of 9000 tokens exceeds max_model_len 2048") ==
        "engine error");
  CHECK(error_class_of("something nobody writes") == "other error");
}

TEST_CASE("errors are counted by class with the first message of each, warm-up left out") {
  const std::vector<RequestRecord> records = {
      failed(0, "HTTP 500: warm-up failure", /*warmup=*/true),
      failed(3, "cannot connect to http://127.0.0.1:9: Connection refused"),
      failed(1, "cannot connect to http://127.0.0.1:9: Connection refused (first)"),
      failed(2, "HTTP 503: busy"),
      failed(4, "cannot connect to http://127.0.0.1:9: Connection refused"),
  };
  const std::vector<ErrorClass> classes = classify_errors(records);
  REQUIRE(classes.size() == 2);
  CHECK(classes[0].name == "connection refused");
  CHECK(classes[0].count == 3);
  CHECK(classes[0].first_message ==
        "cannot connect to http://127.0.0.1:9: Connection refused (first)");
  CHECK(classes[1].name == "http status 503");
  CHECK(classes[1].count == 1);
}

TEST_CASE("a run whose every request failed has an error share of one and its classes") {
  std::vector<RequestRecord> records;
  for (uint64_t i = 0; i < 24; ++i) {
    records.push_back(failed(i, "cannot connect to http://127.0.0.1:9: Connection refused"));
  }
  const RunSummary s = summarize_run(records, SloSpec{});
  CHECK(s.num_requests == 24);
  CHECK(s.num_errors == 24);
  CHECK(s.num_completed == 0);
  CHECK(s.error_share == 1.0);
  REQUIRE(s.error_classes.size() == 1);
  CHECK(s.error_classes[0].count == 24);
  CHECK(s.ttft_ms.count == 0);
}

TEST_CASE("the run's summary says how many requests failed and warns above the limit") {
  const nlohmann::json rep_summary = {{"num_requests", 40},
                                      {"num_completed", 37},
                                      {"num_errors", 3},
                                      {"num_aborted", 0},
                                      {"ttft_ms", {{"count", 37}, {"p50", 12.0}}}};
  const nlohmann::json errors = {
      {{"class", "http status 503"}, {"count", 3}, {"first_message", "HTTP 503: overloaded"}}};
  nlohmann::json results = {
      {"max_error_share", 0.01},
      {"points",
       {{{"sweep", nullptr},
         {"summary", rep_summary},
         {"repetitions", {{{"summary", rep_summary}, {"errors", errors}}}}}}}};
  std::ostringstream out;
  print_summary_table(out, results);
  CHECK_THAT(out.str(), Catch::Contains("warning: 3 of 40 requests failed: http status 503: 3 "
                                        "(first: HTTP 503: overloaded) (7.5%, above "
                                        "--max-error-share 1%)"));
  results["max_error_share"] = 0.1;
  out.str("");
  print_summary_table(out, results);
  CHECK_THAT(out.str(), !Catch::Contains("warning") && Catch::Contains("3 of 40 requests failed"));
}

TEST_CASE("a point where every request failed shows dashes, not zero latencies") {
  const nlohmann::json s = {{"num_requests", 24},
                            {"num_completed", 0},
                            {"num_errors", 24},
                            {"num_aborted", 0},
                            {"request_throughput_rps", 0.0},
                            {"ttft_ms", {{"count", 0}, {"p50", 0.0}, {"p95", 0.0}}}};
  const nlohmann::json results = {
      {"points", {{{"sweep", nullptr}, {"summary", s}, {"repetitions", {{{"summary", s}}}}}}}};
  std::ostringstream out;
  print_summary_table(out, results);
  CHECK_THAT(out.str(), Catch::Contains("error: no request succeeded: 24 of 24 requests failed"));
  CHECK_THAT(out.str(), !Catch::Contains(" 0.0 "));  // TTFT of no request is "-", not 0.0
}
