// /tokenize and /detokenize (vLLM's): a text prompt, chat messages through the template (as a
// chat completion prompts with them), and ids back to text; refusals name the field.
#include <catch2/catch.hpp>
#include <string>

#include "common/openai/openai_error.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/chat_template.h"
#include "engine/tokenizer/vocabulary.h"
#include "server/openai/chat_request.h"
#include "server/openai/tokenize_request.h"

namespace infergate {
namespace {

using nlohmann::json;

TEST_CASE("tokenize: a prompt's ids with and without special tokens, and back") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 256, &tokenizer};
  const json with = answer_tokenize(R"({"model": "tiny", "prompt": "Hi!"})", model);
  CHECK(with["tokens"] == json(tokenizer.encode("Hi!", true)));
  CHECK(with["count"] == tokenizer.encode("Hi!", true).size());
  CHECK(with["max_model_len"] == 256);
  const json without = answer_tokenize(R"({"prompt": "Hi!", "add_special_tokens": false})", model);
  CHECK(without["tokens"] == json(tokenizer.encode("Hi!", false)));
  const json back = answer_detokenize(json{{"tokens", without["tokens"]}}.dump(), model);
  CHECK(back["prompt"] == "Hi!");
}

TEST_CASE("tokenize: messages are the chat completion's prompt") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ChatTemplate chat(
      "{% for m in messages %}[{{ m.role }}]{{ m.content }}{% endfor %}"
      "{% if add_generation_prompt %}[assistant]{% endif %}",
      "", {}, "test");
  ServedModel model{"tiny", 300, 256, &tokenizer};
  model.chat = &chat;
  const std::string body = R"({"messages": [{"role": "user", "content": "Hi"}]})";
  const json answer = answer_tokenize(body, model);
  CHECK(answer["tokens"] == json(parse_chat_request(body, model).prompt));
  CHECK(answer["tokens"] == json(tokenizer.encode("[user]Hi[assistant]", false)));
  const json bare = answer_tokenize(
      R"({"messages": [{"role": "user", "content": "Hi"}], "add_generation_prompt": false})",
      model);
  CHECK(bare["tokens"] == json(tokenizer.encode("[user]Hi", false)));
}

TEST_CASE("tokenize: refusals name the field") {
  const ByteTokenizer tokenizer(synthetic_vocabulary(300));
  const ServedModel model{"tiny", 300, 256, &tokenizer};
  auto refusal = [&](const std::string& body, bool detokenize = false) {
    try {
      detokenize ? answer_detokenize(body, model) : answer_tokenize(body, model);
    } catch (const ApiError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK_THAT(refusal(R"({})"), Catch::Contains("exactly one of 'prompt' and 'messages'"));
  CHECK_THAT(refusal(R"({"prompt": 5})"), Catch::Contains("'prompt' must be a string"));
  CHECK_THAT(refusal(R"({"prompt": "x", "add_special_tokens": 1})"),
             Catch::Contains("true or false"));
  CHECK_THAT(refusal(R"({"prompt": "x", "nope": 1})"), Catch::Contains("nope"));
  CHECK_THAT(refusal(R"({"tokens": [1, 300]})", true), Catch::Contains("outside the vocabulary"));
  CHECK_THAT(refusal(R"({})", true), Catch::Contains("'tokens' is required"));
  const ServedModel ids_only{"ids", 300, 256, nullptr};
  CHECK_THROWS_AS(answer_tokenize(R"({"prompt": "x"})", ids_only), ApiError);
}

}  // namespace
}  // namespace infergate
