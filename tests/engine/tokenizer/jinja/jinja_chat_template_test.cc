// Chat templates end to end, as a model's tokenizer_config.json carries them: a ChatML template
// with tools and reasoning (Qwen 3's shape) and Gemma 3's, which refuses some role orders.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

namespace {

// The parts of Qwen 3's template that exercise the interpreter most.
constexpr const char* kChatMl = R"({%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\n\n' }}
    {%- endif %}
    {{- "# Tools\n<tools>" }}
    {%- for tool in tools %}
        {{- "\n" }}
        {{- tool | tojson }}
    {%- endfor %}
    {{- "\n</tools><|im_end|>\n" }}
{%- elif messages[0].role == 'system' %}
    {{- '<|im_start|>system\n' + messages[0].content + '<|im_end|>\n' }}
{%- endif %}
{%- set ns = namespace(last_query_index=messages|length - 1) %}
{%- for message in messages[::-1] %}
    {%- if message.role == "user" and ns.last_query_index == messages|length - 1 %}
        {%- set ns.last_query_index = (messages|length - 1) - loop.index0 %}
    {%- endif %}
{%- endfor %}
{%- for message in messages %}
    {%- if message.role == "user" or (message.role == "system" and not loop.first) %}
        {{- '<|im_start|>' + message.role + '\n' + message.content + '<|im_end|>\n' }}
    {%- elif message.role == "assistant" %}
        {%- set content = message.content %}
        {%- if '</think>' in content %}
            {%- set content = content.split('</think>')[-1].lstrip('\n') %}
        {%- endif %}
        {{- '<|im_start|>assistant\n' + content }}
        {%- for tool_call in message.tool_calls or [] %}
            {{- '\n<tool_call>\n{"name": "' + tool_call.function.name + '", "arguments": ' }}
            {{- tool_call.function.arguments | tojson }}
            {{- '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %}
)";

}  // namespace

TEST_CASE("jinja: a ChatML template renders a conversation with tools", "[jinja]") {
  const Json context = Json::parse(R"({
    "messages": [
      {"role": "system", "content": "Be brief."},
      {"role": "user", "content": "Weather in Paris?"},
      {"role": "assistant", "content": "<think>\nuse the tool\n</think>\n\n", "tool_calls": [
        {"function": {"name": "weather", "arguments": {"city": "Paris", "days": 1.0}}}]},
      {"role": "user", "content": "Thanks"}
    ],
    "tools": [{"type": "function", "function": {"name": "weather", "parameters": {"city": {"type": "string"}}}}],
    "add_generation_prompt": true
  })");
  REQUIRE(
      render(kChatMl, context) ==
      "<|im_start|>system\nBe brief.\n\n# Tools\n<tools>\n"
      R"({"type": "function", "function": {"name": "weather", "parameters": {"city": {"type": "string"}}}})"
      "\n</tools><|im_end|>\n"
      "<|im_start|>user\nWeather in Paris?<|im_end|>\n"
      "<|im_start|>assistant\n\n<tool_call>\n"
      R"({"name": "weather", "arguments": {"city": "Paris", "days": 1}})"
      "\n</tool_call><|im_end|>\n"
      "<|im_start|>user\nThanks<|im_end|>\n"
      "<|im_start|>assistant\n");
}

TEST_CASE("jinja: a template's raise_exception reaches the caller", "[jinja]") {
  const char* gemma = R"({{ bos_token }}
{%- for message in messages -%}
    {%- if (message['role'] == 'user') != (loop.index0 % 2 == 0) -%}
        {{ raise_exception("Conversation roles must alternate user/assistant/user/assistant/...") }}
    {%- endif -%}
    {{ '<start_of_turn>' + message['role'] + '
' + message['content'] | trim + '<end_of_turn>
' }}
{%- endfor -%})";
  const Json alternating = Json::parse(
      R"({"bos_token": "<bos>", "messages": [{"role": "user", "content": " hi "}, {"role": "model", "content": "yo"}]})");
  REQUIRE(render(gemma, alternating) ==
          "<bos><start_of_turn>user\nhi<end_of_turn>\n<start_of_turn>model\nyo<end_of_turn>\n");
  const Json repeated = Json::parse(
      R"({"bos_token": "<bos>", "messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]})");
  REQUIRE(problem_of(gemma, repeated) ==
          "Conversation roles must alternate user/assistant/user/assistant/...");
}
