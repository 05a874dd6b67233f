// A workload's structured_output section: only for targets that are servers, resolved with an
// absolute path, and hashed only when present.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"
#include "tests/bench/workload/workload_error_of.h"

namespace infergate {
namespace {

using nlohmann::json;

const std::string kLines =
    std::string(INFERGATE_SOURCE_DIR) + "/workloads/text/structured-requests.jsonl";

json server_workload(const std::string& type) {
  json doc = json::parse(R"({"schema": "infergate.workload/v1", "name": "structured-test",
    "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 8},
                "output_tokens": {"dist": "fixed", "value": 4}},
    "load": {"mode": "closed", "concurrency": 1, "num_requests": 2}})");
  doc["target"] = {{"type", type}, {"model", {{"preset", "tiny"}}}};
  if (type == "openai") doc["target"] = {{"type", "openai"}, {"url", "http://127.0.0.1:1"}};
  return doc;
}

TEST_CASE("structured_output is read for server targets and changes the hash") {
  json doc = server_workload("openai");
  const Workload plain = parse_workload(doc, "w.json", "");
  doc["structured_output"] = {{"path", kLines}};
  const Workload w = parse_workload(doc, "w.json", "");
  REQUIRE(w.structured_output);
  CHECK(w.structured_output->path == kLines);
  CHECK(w.resolved["structured_output"] == json{{"path", kLines}});
  CHECK_FALSE(plain.resolved.contains("structured_output"));
  CHECK(w.hash != plain.hash);
}

TEST_CASE("structured_output is refused for targets that are no server, and for a missing file") {
  json engine = server_workload("engine");
  engine["structured_output"] = {{"path", kLines}};
  CHECK_THAT(workload_error_of(engine), Catch::Contains("$.structured_output") &&
                                            Catch::Contains("asked of a server over HTTP"));
  json missing = server_workload("openai");
  missing["structured_output"] = {{"path", "/nonexistent/lines.jsonl"}};
  CHECK_THAT(workload_error_of(missing), Catch::Contains("$.structured_output.path"));
  json typo = server_workload("openai");
  typo["structured_output"] = {{"path", kLines}, {"paht", 1}};
  CHECK_THAT(workload_error_of(typo), Catch::Contains("paht"));
}

}  // namespace
}  // namespace infergate
