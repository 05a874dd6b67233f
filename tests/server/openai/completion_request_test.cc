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
