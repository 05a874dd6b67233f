#include "server/openai/completion_request.h"

#include <catch2/catch.hpp>

#include "common/openai/openai_error.h"

namespace infergate {
namespace {

TEST_CASE("completion request: bad input gets a 4xx naming the problem") {
  const ServedModel model{"tiny", 100, 64, nullptr};
  struct Case {
    const char* body;
    int status;
    const char* fragment;
  };
  const Case cases[] = {
      {"{not json", 400, "not valid JSON"},
      {"[1, 2]", 400, "JSON object"},
      {R"({"prompt": [1], "bogus": 1})", 400, "unknown field 'bogus'"},
      {R"({"max_tokens": 4})", 400, "'prompt' is required"},
      {R"({"prompt": []})", 400, "'prompt' is empty"},
      {R"({"prompt": "hello"})", 400, "text prompts need a tokenizer"},
      {R"({"prompt": [1, 100]})", 400, "outside the vocabulary"},
      {R"({"prompt": [-1]})", 400, "outside the vocabulary"},
      {R"({"prompt": [1.5]})", 400, "array of token ids"},
      {R"({"prompt": [[1], [2]]})", 400, "batched prompts"},
      {R"({"prompt": [1], "max_tokens": 0})", 400, "'max_tokens' must be >= 1"},
      {R"({"prompt": [1], "max_tokens": -3})", 400, "'max_tokens' must be >= 1"},
      {R"({"prompt": [1], "max_tokens": 64})", 400, "only 63 tokens fit"},
      {R"({"prompt": [1], "max_tokens": "8"})", 400, "'max_tokens' must be an integer"},
      {R"({"prompt": [1], "temperature": "hot"})", 400, "'temperature' must be a number"},
      {R"({"prompt": [1], "temperature": -1})", 400, "temperature must be"},
      {R"({"prompt": [1], "top_p": 0})", 400, "top_p must be"},
      {R"({"prompt": [1], "seed": -2})", 400, "'seed' must be >= 0"},
      {R"({"prompt": [1], "stream": 1})", 400, "'stream' must be a boolean"},
      {R"({"prompt": [1], "stream_options": {"include_usage": true}})", 400, "needs"},
      {R"({"prompt": [1], "model": "other"})", 404, "does not exist"},
      {R"({"prompt": [1], "max_tokens": 1, "max_tokens": 1000})", 400,
       "duplicate key 'max_tokens' (each key may appear once per object)"},
      {R"({"prompt": [1], "prompt": [2]})", 400, "duplicate key 'prompt'"},
      {R"({"prompt": [1], "stream": true, "stream_options": {"include_usage": true,
          "include_usage": false}})",
       400, "duplicate key 'include_usage'"},
      {R"({"prompt": [1], "max_tokens": 4, "resume_token_ids": [2]})", 400,
       "'resume_token_ids' needs \"stream\": true"},
      {R"({"prompt": [1], "max_tokens": 4, "stream": true, "resume_token_ids": 2})", 400,
       "'resume_token_ids' must be an array"},
      {R"({"prompt": [1], "max_tokens": 2, "stream": true, "resume_token_ids": [2, 3]})", 400,
       "fewer than max_tokens (2) must be"},
      {R"({"prompt": [1], "max_tokens": 4, "stream": true, "resume_token_ids": [100]})", 400,
       "outside the vocabulary"},
      {R"({"prompt": [1], "n": 10000})", 400, "'n' must be in [1, 128], got 10000"},
      {R"({"prompt": [1], "n": 0})", 400, "'n' must be in [1, 128]"},
      {R"({"prompt": [1], "max_tokens": 4, "n": 2, "stream": true, "resume_token_ids": [2]})", 400,
       "'n' must be 1 with resume_token_ids or kv_transfer"},
      {R"({"prompt": [1], "logprobs": 1000000})", 400, "'logprobs' must be in [0, 20]"},
      {R"({"prompt": [1], "logprobs": true})", 400, "'logprobs' must be an integer"},
      {R"({"prompt": [1], "logprobs": 1, "echo": true})", 400, "prompt's logprobs"},
      {R"({"prompt": [1], "logit_bias": {"100": 1}})", 400,
       "'logit_bias.100': token id 100 is outside the vocabulary [0, 100)"},
      {R"({"prompt": [1], "logit_bias": {"-1": 1}})", 400, "outside the vocabulary"},
      {R"({"prompt": [1], "logit_bias": {"5x": 1}})", 400, "'logit_bias.5x': the key must be"},
      {R"({"prompt": [1], "logit_bias": {"5": 101}})", 400, "must be in [-100, 100]"},
      {R"({"prompt": [1], "logit_bias": {"5": "up"}})", 400, "'logit_bias.5' must be a number"},
      {R"({"prompt": [1], "logit_bias": [1]})", 400, "'logit_bias' must be an object"},
      {R"({"prompt": [1], "frequency_penalty": 3})", 400, "frequency_penalty must be in [-2, 2]"},
      {R"({"prompt": [1], "presence_penalty": -2.5})", 400, "presence_penalty must be in"},
      {R"({"prompt": [1], "repetition_penalty": 0})", 400, "repetition_penalty must be"},
      {R"({"prompt": [1], "max_tokens": 4, "min_tokens": 5})", 400, "min_tokens must be in [0"},
      {R"({"prompt": [1], "best_of": 2})", 400, "'best_of': best_of is not supported"},
      {R"({"prompt": [1], "suffix": "x"})", 400, "fill-in-the-middle"},
      {R"({"prompt": [1], "tools": []})", 400, "unknown field 'tools'"},
      {R"({"prompt": [1], "max_completion_tokens": 2})", 400,
       "unknown field 'max_completion_tokens'"},
  };
  for (const Case& c : cases) {
    INFO(c.body);
    try {
      parse_completion_request(c.body, model);
      FAIL("accepted");
    } catch (const ApiError& e) {
      CHECK(e.status() == c.status);
      CHECK_THAT(e.what(), Catch::Contains(c.fragment));
    }
  }
}

TEST_CASE("completion request: refusals quote an excerpt of a huge name, not all of it") {
  const ServedModel model{"tiny", 100, 64, nullptr};
  const std::string huge(500000, 'k');
  const std::string bodies[] = {
      R"({"prompt": [1], ")" + huge + R"(": 1})",
      R"({"prompt": [1], "model": ")" + huge + R"("})",
      R"({"prompt": [1], ")" + huge + R"(": 1, ")" + huge + R"(": 2})",
      R"({"prompt": [1], "stream": true, "stream_options": {")" + huge + R"(": true}})",
  };
  for (const std::string& body : bodies) {
    try {
      parse_completion_request(body, model);
      FAIL("accepted");
    } catch (const ApiError& e) {
      CHECK_THAT(e.what(), Catch::Contains("kkk..."));
      CHECK(std::string(e.what()).size() < 200);
      CHECK(e.param().size() < 100);
      CHECK(e.to_json().dump().size() < 400);
    }
  }
}

TEST_CASE("completion request: a good body becomes sampling params") {
  const ServedModel model{"tiny", 100, 64, nullptr};
  const CompletionRequest r = parse_completion_request(
      R"({"model": "tiny", "prompt": [1, 2, 3], "max_tokens": 5, "temperature": 0.5,
          "top_p": 0.9, "top_k": -1, "seed": 7, "ignore_eos": true, "stream": true,
          "stream_options": {"include_usage": true}})",
      model);
  CHECK(r.prompt == std::vector<int32_t>{1, 2, 3});
  CHECK(r.sampling.max_tokens == 5);
  CHECK(r.sampling.top_k == 0);
  CHECK(r.sampling.seed == 7u);
  CHECK(r.sampling.ignore_eos);
  CHECK(r.stream);
  CHECK(r.include_usage);
}

TEST_CASE(
    "completion request: logit_bias with more ids than allowed is refused before it is read") {
  const ServedModel model{"tiny", 100000, 64, nullptr};
  std::string body = R"({"prompt": [1], "logit_bias": {)";
  for (int i = 0; i < 5000; ++i) body += (i ? ",\"" : "\"") + std::to_string(i) + "\": 1";
  body += "}}";
  CHECK_THROWS_WITH(parse_completion_request(body, model),
                    Catch::Contains("'logit_bias' has 5000 entries; at most 1024"));
}

TEST_CASE("completion request: OpenAI and vLLM sampling fields become sampling params") {
  const ServedModel model{"tiny", 100, 64, nullptr};
  const CompletionRequest r = parse_completion_request(
      R"({"prompt": [1, 2], "max_tokens": 6, "frequency_penalty": 0.5, "presence_penalty": -0.25,
          "repetition_penalty": 1.1, "min_tokens": 2, "logit_bias": {"7": -100, "9": 2.5},
          "logprobs": 3, "n": 4, "user": "u1", "seed": 3, "suffix": null, "best_of": null})",
      model);
  CHECK(r.sampling.frequency_penalty == 0.5f);
  CHECK(r.sampling.presence_penalty == -0.25f);
  CHECK(r.sampling.repetition_penalty == 1.1f);
  CHECK(r.sampling.min_tokens == 2);
  CHECK(r.sampling.logit_bias == std::vector<std::pair<int32_t, float>>{{7, -100.0f}, {9, 2.5f}});
  CHECK(r.sampling.logprobs == 3);
  CHECK(r.n == 4);
  CHECK(r.sampling.seed == 3u);
  const CompletionRequest plain = parse_completion_request(R"({"prompt": [1]})", model);
  CHECK(plain.sampling.logprobs == -1);
  CHECK_FALSE(plain.sampling.needs_host_logits());
}

TEST_CASE("completion request: resume_token_ids are kept apart from the prompt") {
  const ServedModel model{"tiny", 100, 64, nullptr};
  const CompletionRequest r = parse_completion_request(
      R"({"prompt": [1, 2, 3], "max_tokens": 5, "stream": true, "resume_token_ids": [7, 8]})",
      model);
  CHECK(r.prompt == std::vector<int32_t>{1, 2, 3});
  CHECK(r.resumed == std::vector<int32_t>{7, 8});
  CHECK(r.sampling.max_tokens == 5);  // the whole answer's; the handler subtracts what is resumed
}

}  // namespace
}  // namespace infergate
