// Tool calling's request side: tools and tool_choice checked, rendered through the chat template
// (ChatML's <tool_call> layout here), and required / named choices turned into a grammar whose
// sentences are exactly the calls allowed.
#include "server/openai/tool_request.h"

#include <catch2/catch.hpp>

#include "common/openai/openai_error.h"
#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"
#include "server/openai/chat_request.h"

namespace infergate {
namespace {

using nlohmann::ordered_json;

constexpr const char* kTools = R"("tools": [
  {"type": "function", "function": {"name": "get_weather", "description": "Weather now.",
   "parameters": {"type": "object", "properties": {"city": {"type": "string"},
                  "unit": {"enum": ["C", "F"]}}, "required": ["city", "unit"]}}},
  {"type": "function", "function": {"name": "now"}}])";

std::string chat_body(const std::string& extra) {
  return std::string(R"({"messages": [{"role": "user", "content": "Weather in Paris?"}], )") +
         kTools + (extra.empty() ? "" : ", " + extra) + "}";
}

ToolRequest tools_of(const std::string& extra) {
  return read_tool_request(ordered_json::parse(chat_body(extra)));
}

// Whether the grammar of `tools` takes `text` whole.
bool takes(const std::string& gbnf, const std::string& text) {
  GrammarMatcher m(std::make_shared<const Grammar>(parse_gbnf(gbnf)));
  return m.accept(text) && m.complete();
}

TEST_CASE("tools: bad tools and tool_choice get a 400 naming the field") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 4096, &tokenizer};
  struct Case {
    std::string body;
    const char* fragment;
  };
  std::string many = R"({"messages": [{"role": "user", "content": "x"}], "tools": [)";
  for (int i = 0; i < 129; ++i) {
    many += (i ? "," : "") + std::string(R"({"type": "function", "function": {"name": "f)") +
            std::to_string(i) + "\"}}";
  }
  many += "]}";
  const std::vector<Case> cases = {
      {many, "'tools' has 129 functions; at most 128"},
      {R"({"messages": [{"role": "user", "content": "x"}], "tools": {}})",
       "'tools' must be an array"},
      {R"({"messages": [{"role": "user", "content": "x"}],
           "tools": [{"type": "function", "function": {"name": "a b"}}]})",
       "'tools[0].function.name' must be 1 to 64 letters"},
      {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function",
           "function": {"name": "f"}}, {"type": "function", "function": {"name": "f"}}]})",
       "names the function 'f' twice"},
      {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function",
           "function": {"name": "f", "parameters": [1]}}]})",
       "'tools[0].function.parameters' must be a JSON schema object"},
      {R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": "required"})",
       "'tool_choice' other than \"none\" needs 'tools'"},
      {chat_body(R"("tool_choice": "sometimes")"), "'tool_choice' must be \"none\", \"auto\""},
      {chat_body(R"("tool_choice": {"type": "function", "function": {"name": "later"}})"),
       "'tool_choice' names 'later', which is not among 'tools'"},
      {chat_body(R"("parallel_tool_calls": "yes")"), "'parallel_tool_calls' must be true or false"},
      {chat_body(R"("tool_choice": "required", "response_format": {"type": "json_object"})"),
       "'tool_choice' and 'response_format' both constrain the output"},
      {R"({"messages": [{"role": "user", "content": "x"}], "tool_choice": "required", "tools":
          [{"type": "function", "function": {"name": "f", "parameters": {"type": "object",
          "properties": {"x": {"type": "string", "pattern": "a+"}}}}}]})",
       "'tools[0].function.parameters': schema.properties.x.pattern"},
      {R"({"messages": [{"role": "assistant", "content": null, "tool_calls": [{"type":
          "function", "function": {"name": "f", "arguments": "{not json"}}]}]})",
       "'messages[0].tool_calls[0].function.arguments' must be the JSON text of an object"},
      {R"({"messages": [{"role": "assistant", "tool_calls": [{"function": {"arguments": "{}"}}]}]})",
       "'messages[0].tool_calls[0].function.name' must be a string"},
      {R"({"messages": [{"role": "user", "content": "x", "tool_calls": []}]})",
       "unknown field 'messages[0].tool_calls'"},
      {R"({"messages": [{"role": "user", "content": null}]})", "'messages[0].content' is required"},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    try {
      parse_chat_request(c.body, model);
      FAIL("accepted");
    } catch (const ApiError& e) {
      CHECK(e.status() == 400);
      CHECK_THAT(e.what(), Catch::Contains(c.fragment));
    }
  }
}

TEST_CASE("tools: ChatML shows the tools, earlier calls and their results in <tool_call> layout") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 4096, &tokenizer};
  const CompletionRequest r = parse_chat_request(
      R"({"messages": [{"role": "system", "content": "Be brief."},
          {"role": "user", "content": "Weather?"},
          {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type":
           "function", "function": {"name": "now", "arguments": "{\"zone\": \"UTC\", \"a\": 1}"}}]},
          {"role": "tool", "tool_call_id": "call_1", "content": "12:00"},
          {"role": "tool", "tool_call_id": "call_2", "content": "sunny"}],
          "tools": [{"type": "function", "function": {"name": "now"}}]})",
      model);
  const std::string expected =
      "<|im_start|>system\nBe brief.\n\n# Tools\n\nThese functions may be called. Their "
      "signatures, one per line:\n<tools>\n"
      R"({"type": "function", "function": {"name": "now"}})"
      "\n</tools>\n\nTo call one, answer with its name and arguments as JSON between "
      "<tool_call></tool_call> tags:\n<tool_call>\n{\"name\": <name>, \"arguments\": "
      "<arguments object>}\n</tool_call><|im_end|>\n"
      "<|im_start|>user\nWeather?<|im_end|>\n"
      "<|im_start|>assistant\n<tool_call>\n"
      R"({"name": "now", "arguments": {"zone": "UTC", "a": 1}})"
      "\n</tool_call><|im_end|>\n"
      "<|im_start|>user\n<tool_response>\n12:00\n</tool_response>\n<tool_response>\nsunny\n"
      "</tool_response><|im_end|>\n<|im_start|>assistant\n";
  CHECK(r.prompt == tokenizer.encode(expected, true));
  CHECK(r.tools.choice == ToolChoice::kAuto);  // the default with tools
  CHECK(r.tools.reads_calls());
  CHECK_FALSE(r.sampling.grammar);  // auto constrains nothing
}

TEST_CASE("tools: required and named choices become the grammar of the calls they allow") {
  const std::string call =
      "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Paris\", \"unit\": "
      "\"C\"}}\n</tool_call>";
  const std::string now = "<tool_call>\n{\"name\": \"now\", \"arguments\": {}}\n</tool_call>";
  const std::string required =
      tool_call_gbnf(tools_of(R"("tool_choice": "required")"), ToolCallFormat::kHermes);
  CHECK(takes(required, call));
  CHECK(takes(required, now));
  CHECK(takes(required, call + "\n" + now));  // parallel_tool_calls defaults to true
  CHECK_FALSE(takes(required, ""));
  CHECK_FALSE(takes(required, "Sure! " + call));
  CHECK_FALSE(
      takes(required, "<tool_call>\n{\"name\": \"later\", \"arguments\": {}}\n</tool_call>"));
  CHECK_FALSE(takes(required,
                    "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": "
                    "{\"city\": \"Paris\", \"unit\": \"K\"}}\n</tool_call>"));

  const std::string single =
      tool_call_gbnf(tools_of(R"("tool_choice": "required", "parallel_tool_calls": false)"),
                     ToolCallFormat::kHermes);
  CHECK(takes(single, now));
  CHECK_FALSE(takes(single, call + "\n" + now));

  const std::string named = tool_call_gbnf(
      tools_of(R"("tool_choice": {"type": "function", "function": {"name": "get_weather"}})"),
      ToolCallFormat::kHermes);
  CHECK(takes(named, call));
  CHECK_FALSE(takes(named, now));
  CHECK_FALSE(takes(named, call + "\n" + call));

  CHECK(tool_call_gbnf(tools_of(""), ToolCallFormat::kHermes).empty());  // auto
  CHECK(tool_call_gbnf(tools_of(R"("tool_choice": "none")"), ToolCallFormat::kHermes).empty());
  CHECK_THROWS_WITH(tool_call_gbnf(tools_of(R"("tool_choice": "required")"), ToolCallFormat::kNone),
                    Catch::Contains("needs a chat template whose tool calls infergate can write"));
}

TEST_CASE("tools: the parameters' $defs serve every tool's calls") {
  const ordered_json request = ordered_json::parse(R"({"tool_choice": "required", "tools": [
      {"type": "function", "function": {"name": "move", "parameters": {"type": "object",
       "properties": {"to": {"$ref": "#/$defs/point"}}, "required": ["to"],
       "$defs": {"point": {"type": "object", "properties": {"x": {"type": "integer"}},
                 "required": ["x"]}}}}}]})");
  const std::string gbnf = tool_call_gbnf(read_tool_request(request), ToolCallFormat::kHermes);
  CHECK(takes(gbnf,
              "<tool_call>\n{\"name\": \"move\", \"arguments\": {\"to\": {\"x\": 3}}}\n"
              "</tool_call>"));
  CHECK_FALSE(takes(gbnf,
                    "<tool_call>\n{\"name\": \"move\", \"arguments\": {\"to\": {\"x\": "
                    "\"3\"}}}\n</tool_call>"));
}

TEST_CASE("tools: a template without a readable call layout only shows tools") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ChatTemplate plain(
      "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}{{ tools | length }}", "",
      {}, "plain");
  ServedModel model{"plain", 300, 4096, &tokenizer};
  model.chat = &plain;
  CHECK(plain.tool_call_format() == ToolCallFormat::kNone);
  CHECK(ChatTemplate().tool_call_format() == ToolCallFormat::kHermes);  // ChatML
  const ChatTemplate hermes("{% for c in messages[-1].tool_calls %}<tool_call>{% endfor %}", "", {},
                            "hermes");
  CHECK(hermes.tool_call_format() == ToolCallFormat::kHermes);
  CHECK_THROWS_WITH(parse_chat_request(chat_body(""), model),
                    Catch::Contains("writes tool calls in a layout infergate does not read back"));
  const CompletionRequest r = parse_chat_request(chat_body(R"("tool_choice": "none")"), model);
  CHECK(r.prompt == tokenizer.encode("[user]Weather in Paris?2", false));
  CHECK_FALSE(r.tools.reads_calls());
}

}  // namespace
}  // namespace infergate
