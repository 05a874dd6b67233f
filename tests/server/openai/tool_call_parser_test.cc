#include "server/openai/tool_call_parser.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

// All a parser made of `pieces`, finish() included: the content and each call as name(args).
struct Result {
  std::string content;
  std::vector<std::string> calls;
};

void add(Result& r, const ToolCallParser::Output& out) {
  r.content += out.content;
  for (const ToolCall& c : out.calls) r.calls.push_back(c.name + "(" + c.arguments + ")");
}

Result run(const std::vector<std::string_view>& pieces) {
  ToolCallParser parser({"get_weather", "get_time"});
  Result r;
  for (std::string_view p : pieces) add(r, parser.push(p));
  add(r, parser.finish());
  return r;
}

Result run(std::string_view text) { return run(std::vector<std::string_view>{text}); }

const std::string kParis =
    R"(<tool_call>
{"name": "get_weather", "arguments": {"city": "Paris", "days": 2}}
</tool_call>)";

TEST_CASE("tool calls: text without a call passes through unchanged", "[tool_calls]") {
  for (std::string_view text : {"", "Hello!", "a < b and a <tool c", "x <tool_cal", "<", "ends <",
                                "</tool_call> stray", "<tool_calls>", "caf\xC3\xA9 \xF0\x9F"}) {
    const Result r = run(text);
    CHECK(r.content == text);
    CHECK(r.calls.empty());
  }
}

TEST_CASE("tool calls: a possible tag is held back until the next piece shows what it is",
          "[tool_calls]") {
  ToolCallParser parser({"get_weather"});
  CHECK(parser.push("hello <tool").content == "hello ");
  CHECK(parser.push("_cal").content == "");
  CHECK(parser.push("x").content == "<tool_calx");
  CHECK(parser.push(" <").content == " ");
  CHECK(parser.finish().content == "<");  // the answer ended: nothing is lost
  CHECK_FALSE(parser.called());
}

TEST_CASE("tool calls: a call is read with its arguments' key order kept", "[tool_calls]") {
  ToolCallParser parser({"get_weather"});
  const ToolCallParser::Output out = parser.push(kParis);
  CHECK(out.content.empty());
  REQUIRE(out.calls.size() == 1);
  CHECK(out.calls[0].name == "get_weather");
  CHECK(out.calls[0].arguments == R"({"city":"Paris","days":2})");
  CHECK(parser.called());
  CHECK(parser.finish().content.empty());
}

TEST_CASE("tool calls: a call comes out with the piece that closes it", "[tool_calls]") {
  ToolCallParser parser({"get_time"});
  CHECK_FALSE(parser.called());
  CHECK(parser.push(R"(<tool_call>{"name": "get_time"})").calls.empty());
  CHECK_FALSE(parser.called());
  const ToolCallParser::Output out = parser.push("</tool_call>");
  REQUIRE(out.calls.size() == 1);
  CHECK(out.calls[0].arguments == "{}");  // arguments absent: none
  CHECK(parser.called());
}

TEST_CASE("tool calls: whitespace between and after calls is dropped, content is kept",
          "[tool_calls]") {
  const std::string time = R"(<tool_call>{"name": "get_time", "arguments": {}}</tool_call>)";
  Result r = run(kParis + "\n" + time + "\n\n");
  CHECK(r.content.empty());
  CHECK(r.calls ==
        std::vector<std::string>{R"(get_weather({"city":"Paris","days":2}))", "get_time({})"});

  r = run("Let me check.\n\n" + kParis);
  CHECK(r.content == "Let me check.\n\n");
  CHECK(r.calls.size() == 1);

  r = run(kParis + "\n\nDone, see above. \n");  // after a call, text that is not whitespace
  CHECK(r.content == "\n\nDone, see above. \n");
  CHECK(r.calls.size() == 1);

  r = run(kParis + " \n<tool");  // a partial tag at the end is content, with what came before
  CHECK(r.content == " \n<tool");
}

TEST_CASE("tool calls: a body that is not a call stays text, exactly as generated",
          "[tool_calls]") {
  const std::string bodies[] = {
      R"({"name": "get_weather", "arguments": {"city": )",              // invalid JSON
      R"({"name": "get_weather"} trailing)",                            // more after the object
      R"({"name": "send_email", "arguments": {}})",                     // not one of the tools
      R"({"name": "get_weather", "arguments": "{\"city\": 1}"})",       // arguments not an object
      R"({"name": "get_weather", "arguments": [1]})",                   // arguments an array
      R"({"name": 7, "arguments": {}})",                                // name not a string
      R"({"arguments": {}})",                                           // no name
      R"(["get_weather", {}])",                                         // not an object
      R"({"name": "get_weather", "arguments": {"x": 1e400}})",          // a number out of range
      "{\"name\": \"get_weather\", \"arguments\": {\"x\": \"\xFF\"}}",  // invalid UTF-8
      "",                                                               // nothing at all
  };
  for (const std::string& body : bodies) {
    const std::string text = "Sure.\n<tool_call>\n" + body + "\n</tool_call>\nok";
    const Result r = run(text);
    CHECK(r.content == text);
    CHECK(r.calls.empty());
  }
  // Text that is not a call comes after a call: the whitespace before it is content too.
  const std::string bad = R"(<tool_call>{"name": "nope"}</tool_call>)";
  const Result r = run(kParis + "\n" + bad);
  CHECK(r.content == "\n" + bad);
  CHECK(r.calls.size() == 1);
}

TEST_CASE("tool calls: arguments nested past the limit are text, and nothing overflows",
          "[tool_calls]") {
  for (size_t depth : {200, 100000}) {
    const std::string text = R"(<tool_call>{"name": "get_time", "arguments": {"a": )" +
                             std::string(depth, '[') + std::string(depth, ']') + "}}</tool_call>";
    const Result r = run(text);
    CHECK(r.content == text);
    CHECK(r.calls.empty());
  }
  const Result r = run(R"(<tool_call>{"name": "get_time", "arguments": {"a": [[["]]]]"]]]}})"
                       "</tool_call>");  // brackets inside strings do not count
  CHECK(r.calls == std::vector<std::string>{R"(get_time({"a":[[["]]]]"]]]}))"});
}

TEST_CASE("tool calls: a call never closed is text at the end", "[tool_calls]") {
  ToolCallParser parser({"get_weather"});
  const std::string open = R"(<tool_call>{"name": "get_weather", "arguments": {)";
  CHECK(parser.push("Here: " + open).content == "Here: ");
  const ToolCallParser::Output out = parser.finish();
  CHECK(out.content == open);
  CHECK(out.calls.empty());
  CHECK_FALSE(parser.called());
}

TEST_CASE("tool calls: the result does not depend on how the text is split", "[tool_calls]") {
  const std::string texts[] = {
      "a < b <tool <tool_cal x",
      "Checking.\n" + kParis + "\n" + R"(<tool_call>{"name":"get_time"}</tool_call>)" + "\n \n",
      kParis + "\n\nAfter.\n<tool_call>{\"name\": \"get_time\", \"arguments\": 3}</tool_call>",
      "caf\xC3\xA9 <tool_call>{\"name\": \"get_weather\", \"arguments\": "
      "{\"city\": \"Z\xC3\xBCrich\"}}</tool_call>\t",
      "<tool_call><tool_call>{\"name\": \"get_time\"}</tool_call></tool_call>",
      kParis + "\n<tool_call>{\"name\": \"get_time\"",
      kParis + "  <tool_cal",
  };
  for (const std::string& text : texts) {
    const Result whole = run(text);
    for (size_t i = 0; i <= text.size(); ++i) {
      const std::string_view t = text;
      const Result split = run({t.substr(0, i), t.substr(i)});
      CHECK(split.content == whole.content);
      CHECK(split.calls == whole.calls);
    }
    std::vector<std::string_view> bytes;
    for (size_t i = 0; i < text.size(); ++i) bytes.push_back(std::string_view(text).substr(i, 1));
    const Result byte_by_byte = run(bytes);
    CHECK(byte_by_byte.content == whole.content);
    CHECK(byte_by_byte.calls == whole.calls);
  }
}

}  // namespace
}  // namespace infergate
