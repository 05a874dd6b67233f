#include "server/openai/chat_request.h"

#include <catch2/catch.hpp>

#include "common/openai/openai_error.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/vocabulary.h"

namespace infergate {
namespace {

TEST_CASE("chat request: bad input gets a 4xx naming the problem") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 256, &tokenizer};
  const ServedModel no_text{"ids-only", 300, 256, nullptr};
  struct Case {
    const char* body;
    int status;
    const char* fragment;
    const ServedModel* model;
  };
  const Case cases[] = {
      {"{", 400, "not valid JSON", &model},
      {R"({"max_tokens": 4})", 400, "'messages' is required", &model},
      {R"({"messages": []})", 400, "'messages' is empty", &model},
      {R"({"messages": "hi"})", 400, "'messages' must be an array", &model},
      {R"({"messages": [1]})", 400, "'messages[0]' must be an object", &model},
      {R"({"messages": [{"role": "robot", "content": "x"}]})", 400, "messages[0].role", &model},
      {R"({"messages": [{"role": "user"}]})", 400, "'messages[0].content' is required", &model},
      {R"({"messages": [{"role": "user", "content": 5}]})", 400, "string or an array", &model},
      {R"({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]})", 400,
       "other content types are not supported", &model},
      // Found by the fuzzer: a non-string type once escaped as json::type_error.
      {R"({"messages": [{"role": "user", "content": [{"type": {"url": "data:,"}}]}]})", 400,
       "other content types are not supported", &model},
      {R"({"messages": [{"role": "user", "content": "x", "mood": 1}]})", 400,
       "unknown field 'messages[0].mood'", &model},
      {R"({"messages": [{"role": "user", "role": "system", "content": "x"}]})", 400,
       "duplicate key 'role'", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": 1,
          "max_completion_tokens": 200})",
       400, "duplicate key 'max_completion_tokens'", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "prompt": [1]})", 400,
       "unknown field 'prompt'", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 4,
           "max_completion_tokens": 4})",
       400, "not both", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_completion_tokens": 0})", 400,
       "must be >= 1", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 250})", 400,
       "tokens fit after", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "stop": ["a","b","c","d","e"]})", 400,
       "at most 4", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "stop": [""]})", 400, "non-empty",
       &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "n": 10000})", 400,
       "'n' must be in [1, 128], got 10000", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "top_logprobs": 2})", 400,
       "'top_logprobs' needs \"logprobs\": true", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "logprobs": true,
           "top_logprobs": 1000000})",
       400, "'top_logprobs' must be in [0, 20], got 1000000", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "logprobs": 2})", 400,
       "'logprobs' must be a boolean", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function"}]})", 400,
       "'tools[0]' must be {\"type\": \"function\"", &model},
      {R"({"messages": [{"role": "user", "content": "x"}],
           "response_format": {"type": "xml"}})",
       400, "'response_format.type' must be text, json_object or json_schema", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "response_format":
           {"type": "json_schema", "json_schema": {"name": "a", "schema": {"type": "strin"}}}})",
       400, "'response_format.json_schema.schema': schema.type", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "guided_regex": "a",
           "guided_choice": ["a"]})",
       400, "both constrain the output", &model},
      {R"x({"messages": [{"role": "user", "content": "x"}], "guided_regex": "a(?=b)"})x", 400,
       "'guided_regex': regex offset 1", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "guided_grammar": "root ::= root"})",
       400, "'guided_grammar': rule 'root' is left-recursive", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "guided_choice": []})", 400,
       "'guided_choice' must be a non-empty array", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "structured_outputs": {"xml": 1}})", 400,
       "'structured_outputs' takes json, regex", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "guided_choice": ["a"],
           "ignore_eos": true})",
       400, "ignore_eos cannot be combined", &model},
      {R"({"messages": [{"role": "user", "content": "x"}], "echo": true})", 400,
       "unknown field 'echo'", &model},
      {R"({"messages": [{"role": "user", "content": "x"}]})", 400, "chat needs a text tokenizer",
       &no_text},
      {R"({"messages": [{"role": "user", "content": "x"}], "model": "gpt-4"})", 404,
       "does not exist", &model},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    try {
      parse_chat_request(c.body, *c.model);
      FAIL("accepted");
    } catch (const ApiError& e) {
      CHECK(e.status() == c.status);
      CHECK_THAT(e.what(), Catch::Contains(c.fragment));
    }
  }
}

TEST_CASE("chat request: messages become the ChatML prompt, tokenized") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 256, &tokenizer};
  const CompletionRequest r = parse_chat_request(
      R"({"model": "tiny", "messages": [{"role": "system", "content": "Be brief."},
          {"role": "user", "content": [{"type": "text", "text": "Hi"}, {"type": "text",
          "text": "!"}]}], "max_completion_tokens": 7, "stop": "\n", "stream": true})",
      model);
  const std::string expected =
      "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHi!<|im_end|>\n"
      "<|im_start|>assistant\n";
  CHECK(render_chatml({{"system", "Be brief."}, {"user", "Hi!"}}) == expected);
  CHECK(r.api == ApiKind::kChat);
  CHECK(r.prompt == tokenizer.encode(expected, true));
  CHECK(r.sampling.max_tokens == 7);
  CHECK(r.stop == std::vector<std::string>{"\n"});
  CHECK(r.stream);
}

TEST_CASE("chat request: a model's own template renders the messages, which keep their BOS") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ChatTemplate chat(
      "{{ bos_token }}{% for m in messages %}<|{{ m.role }}|>{{ m.content | trim }}<|end|>"
      "{% endfor %}{% if add_generation_prompt %}<|assistant|>{% endif %}",
      "", {{"bos_token", "<s>"}}, "test");
  ServedModel model{"tiny", 300, 256, &tokenizer};
  model.chat = &chat;
  const CompletionRequest r = parse_chat_request(
      R"({"model": "tiny", "messages": [{"role": "user", "content": " Hi "}]})", model);
  // The template writes the BOS text itself: no BOS token is added on top.
  CHECK(r.prompt == tokenizer.encode("<s><|user|>Hi<|end|><|assistant|>", false));
  CHECK_FALSE(chat.is_chatml());
  const ChatTemplate refusing("{{ raise_exception('no system role') }}", "", {}, "test");
  model.chat = &refusing;
  try {
    parse_chat_request(R"({"model": "tiny", "messages": [{"role": "user", "content": "x"}]})",
                       model);
    FAIL("the template's exception did not refuse the request");
  } catch (const ApiError& e) {
    CHECK(std::string(e.what()).find("no system role") != std::string::npos);
  }
}

}  // namespace
}  // namespace infergate
