// A workload's structured_output over HTTP: infergate serve enforces every line's structure, so
// every answer is judged valid; the echo server ignores them, so every answer is judged invalid
// with its reason. Both through the same judge, as any outside server would be.
#include <catch2/catch.hpp>
#include <fstream>

#include "tests/http/http_test_support.h"
#include "tests/temp_dir.h"

namespace infergate::test {
namespace {

using nlohmann::json;

constexpr const char* kLines =
    R"({"response_format": {"type": "json_schema", "json_schema": {"name": "pair", "schema": {"type": "object", "additionalProperties": false, "required": ["name", "size"], "properties": {"name": {"type": "string", "maxLength": 6}, "size": {"type": "integer", "minimum": 0, "maximum": 99}}}}}}
{"guided_choice": ["yes", "no"]}
{"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "additionalProperties": false, "required": ["city"], "properties": {"city": {"type": "string", "maxLength": 6}}}}}], "tool_choice": "required", "parallel_tool_calls": false}
)";

json structured_patch(const std::string& path) {
  return {
      {"target", {{"api", "chat"}}},
      {"dataset",
       {{"output_tokens", {{"dist", "fixed"}, {"value", 96}, {"min", nullptr}, {"max", nullptr}}}}},
      {"structured_output", {{"path", path}}}};
}

TEST_CASE("structured output against infergate serve: every answer gives what was asked") {
  const testing::TempDir dir;
  std::ofstream(dir.file("lines.jsonl")) << kLines;
  auto server = start_serve();
  const json results =
      run_and_read_back(http_workload(server->url(), structured_patch(dir.file("lines.jsonl"))));
  INFO(results["summary"].dump());
  CHECK(results["summary"]["num_completed"] == 12);
  CHECK(results["summary"]["valid_output_rate"] == 1.0);
  for (const json& r : measured_records(results)) {
    INFO(r.dump());
    CHECK(r["output_problem"] == "");
  }
  CHECK(server->terminate() == 0);
}

TEST_CASE("structured output against a server that ignores it: every answer judged invalid") {
  const testing::TempDir dir;
  std::ofstream(dir.file("lines.jsonl")) << kLines;
  auto server = start_echo();
  const json results =
      run_and_read_back(http_workload(server->url(), structured_patch(dir.file("lines.jsonl"))));
  CHECK(results["summary"]["num_completed"] == 12);
  CHECK(results["summary"]["valid_output_rate"] == 0.0);
  for (const json& r : measured_records(results)) {
    INFO(r.dump());
    const std::string problem = r["output_problem"];
    switch (r["index"].get<int>() % 3) {
      case 0:
        CHECK_THAT(problem, Catch::Contains("not JSON") || Catch::Contains("max_tokens"));
        break;
      case 1:
        CHECK_THAT(problem,
                   Catch::Contains("none of guided_choice") || Catch::Contains("max_tokens"));
        break;
      default:
        CHECK_THAT(problem, Catch::Contains("no tool call") || Catch::Contains("max_tokens"));
    }
  }
  CHECK(server->terminate() == 0);
}

TEST_CASE("without structured_output no answer is judged and the rate is null") {
  auto server = start_echo();
  const json results = run_and_read_back(http_workload(server->url(), json::object()));
  CHECK(results["summary"]["valid_output_rate"].is_null());
  for (const json& r : measured_records(results)) CHECK_FALSE(r.contains("output_problem"));
  CHECK(server->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
