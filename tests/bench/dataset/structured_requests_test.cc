// Structured-output requests: a JSONL file of request fields, request i taking line i mod N, and
// the judge of each answer (parsed and checked against the schema the line asked for, or its
// tools' parameters), refusing what it could not judge with FILE:LINE and the field.
#include "bench/dataset/structured_requests.h"

#include <catch2/catch.hpp>
#include <fstream>

#include "bench/dataset/dataset_error.h"
#include "tests/temp_dir.h"

namespace infergate {
namespace {

using testing::TempDir;

std::shared_ptr<const StructuredRequests> read_lines(const TempDir& dir, const std::string& text,
                                                     const std::string& api = "chat") {
  const std::string path = dir.file("structured.jsonl");
  std::ofstream(path) << text;
  return StructuredRequests::read(path, api);
}

constexpr const char* kLines =
    R"({"response_format": {"type": "json_schema", "json_schema": {"name": "trip", "schema": {"type": "object", "properties": {"city": {"type": "string"}, "days": {"type": "integer", "minimum": 1}}, "required": ["city", "days"], "additionalProperties": false}}}}
{"guided_choice": ["yes", "no"]}
{"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}}, {"type": "function", "function": {"name": "now"}}], "tool_choice": "required", "parallel_tool_calls": false}
)";

StructuredAnswer text(const std::string& content, const std::string& reason = "stop") {
  return {content, {}, reason};
}

StructuredAnswer calls(std::vector<AnswerToolCall> c) { return {"", std::move(c), "tool_calls"}; }

TEST_CASE("structured requests: each request takes its line's fields, in turn") {
  const TempDir dir;
  const auto r = read_lines(dir, kLines);
  REQUIRE(r->size() == 3);
  CHECK(r->has_tools());
  CHECK(r->body_fields(1) == R"(,"guided_choice":["yes","no"])");
  CHECK(r->body_fields(4) == r->body_fields(1));
  CHECK(r->body_fields(0).rfind(R"(,"response_format":{"json_schema":)", 0) == 0);
}

TEST_CASE("structured requests: answers are judged against what their line asked for") {
  const TempDir dir;
  const auto r = read_lines(dir, kLines);
  CHECK(r->problem(0, text(R"({"city": "Oslo", "days": 2})")).empty());
  CHECK(r->problem(0, text(R"( {"city":"Oslo","days":2}
)"))
            .empty());
  CHECK_THAT(r->problem(0, text(R"({"city": "Oslo", "days": 0})")), Catch::Contains("value.days"));
  CHECK_THAT(r->problem(0, text(R"({"city": "Oslo")")), Catch::Contains("not JSON"));
  CHECK_THAT(r->problem(0, text(R"({"city": "Oslo", "days": 2})", "length")),
             Catch::Contains("cut off by max_tokens"));
  CHECK(r->problem(1, text("no")).empty());
  CHECK_THAT(r->problem(1, text("maybe")), Catch::Contains("none of guided_choice"));
  CHECK(r->problem(2, calls({{"get_weather", R"({"city": "Oslo"})"}})).empty());
  CHECK(r->problem(2, calls({{"now", "{}"}})).empty());
  CHECK_THAT(r->problem(2, calls({{"get_weather", R"({"town": "Oslo"})"}})),
             Catch::Contains("tool call 0 (get_weather): value"));
  CHECK_THAT(r->problem(2, calls({{"later", "{}"}})), Catch::Contains("not a function"));
  CHECK_THAT(r->problem(2, calls({{"now", "{}"}, {"now", "{}"}})),
             Catch::Contains("2 tool calls where one is allowed"));
  CHECK_THAT(r->problem(2, text("It is sunny.")), Catch::Contains("no tool call"));
  CHECK_THAT(r->problem(2, calls({{"get_weather", "{\"city\": "}})),
             Catch::Contains("arguments are not JSON"));
}

TEST_CASE("structured requests: a line the judge cannot check is refused with FILE:LINE") {
  const TempDir dir;
  struct Case {
    std::string text;
    const char* fragment;
  };
  const std::vector<Case> cases = {
      {"{\"guided_choice\": [\"a\"]}\n[1]\n", ":2: the line: must be a JSON object"},
      {"{\"guided_regex\": \"a+\"}\n", ":1: guided_regex: is not a structured-output field"},
      {"{\"response_format\": {\"type\": \"text\"}}\n", ":1: response_format: must be"},
      {"{\"guided_json\": {\"type\": \"string\", \"format\": \"email\", \"frobnicate\": 1}}\n",
       ":1: guided_json: "},
      {"{\"tools\": [{\"type\": \"function\", \"function\": {\"name\": \"f\"}}], \"tool_choice\": "
       "{\"type\": \"function\", \"function\": {\"name\": \"g\"}}}\n",
       ":1: tool_choice: names no function"},
      {"\n\n", "holds no request"},
      {"{not json\n", ":1: not a JSON object"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THROWS_WITH(read_lines(dir, c.text), Catch::Contains(c.fragment));
  }
  CHECK_THROWS_WITH(
      read_lines(dir, "{\"tools\": [{\"function\": {\"name\": \"f\"}}]}\n", "completions"),
      Catch::Contains("tools: needs target.api \"chat\""));
}

}  // namespace
}  // namespace infergate
