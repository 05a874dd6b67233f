// What the openai target puts on the wire: the URL it accepts, the JSON bodies it posts, the
// text a chat request carries for token ids.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "bench/dataset/dataset_tokenizer.h"
#include "bench/http/chat_prompt_text.h"
#include "bench/http/openai_request_body.h"
#include "common/http/http_request_text.h"
#include "common/http/http_url.h"

namespace infergate {
namespace {

using nlohmann::json;

TEST_CASE("target URLs: host, port, prefix, and clear refusals") {
  const HttpUrl a = parse_http_url("http://127.0.0.1:8000");
  CHECK(a.host == "127.0.0.1");
  CHECK(a.port == 8000);
  CHECK(a.target("/v1/completions") == "/v1/completions");
  const HttpUrl b = parse_http_url("http://gateway/llm/");
  CHECK(b.port == 80);
  CHECK(b.target("/v1/models") == "/llm/v1/models");
  CHECK(b.text() == "http://gateway:80/llm");
  const HttpUrl v6 = parse_http_url("http://[::1]:9000");
  CHECK(v6.host == "::1");
  CHECK(v6.authority() == "[::1]:9000");
  const HttpUrl tls = parse_http_url("https://api.example.com/llm");
  CHECK(tls.tls);
  CHECK(tls.port == 443);
  CHECK(tls.text() == "https://api.example.com:443/llm");
  CHECK_FALSE(b.tls);

  const std::vector<std::pair<std::string, std::string>> bad = {
      {"ftp://h", "expected http[s]://HOST[:PORT][/PREFIX]"},
      {"localhost:8000", "expected http[s]://HOST[:PORT][/PREFIX]"},
      {"https://:443", "no host"},
      {"http://:8000", "no host"},
      {"http://h:0", "not a number in 1..65535"},
      {"http://h:80x", "not a number in 1..65535"},
      {"http://h:8000/v1", "without /v1"},
      {"http://h:8000/?x=1", "a query or fragment is not allowed"},
  };
  for (const auto& [url, message] : bad) {
    INFO(url);
    CHECK_THROWS_WITH(parse_http_url(url), Catch::Contains(message) && Catch::Contains(url));
  }
}

TEST_CASE("completions bodies send token ids, fixed lengths and ask for usage") {
  const OpenAiRequestBody body("completions", "tiny", 32000);
  CHECK(std::string(body.path()) == "/v1/completions");
  const json j = json::parse(body({1, 300, 31999}, 24));
  CHECK(j == json{{"model", "tiny"},
                  {"prompt", {1, 300, 31999}},
                  {"max_tokens", 24},
                  {"ignore_eos", true},
                  {"stream", true},
                  {"stream_options", {{"include_usage", true}}}});
}

TEST_CASE("chat bodies send one user message and max_completion_tokens") {
  const OpenAiRequestBody body("chat", "m\"odel", 512);
  CHECK(std::string(body.path()) == "/v1/chat/completions");
  // BOS, the bytes of "Hé" (0xC3 0xA9 as byte tokens 3 + b), a space, an ordinary piece
  const json j = json::parse(body({1, 3 + 'H', 3 + 0xC3, 3 + 0xA9, 259, 260}, 5));
  CHECK(j["model"] == "m\"odel");
  CHECK(j["messages"] == json::array({{{"role", "user"}, {"content", "H\xC3\xA9 a"}}}));
  CHECK(j["max_completion_tokens"] == 5);
  CHECK_FALSE(j.contains("max_tokens"));
  CHECK(j["stream_options"]["include_usage"] == true);
  CHECK_THROWS_WITH(OpenAiRequestBody("responses", "m", 512),
                    Catch::Contains("not one of completions, chat"));
}

TEST_CASE("chat text is one byte per id, valid UTF-8") {
  const ChatPromptText text(1000);
  CHECK(text({1, 3 + 'a', 3 + 'b'}) == "ab");  // BOS is nothing
  CHECK(text({3 + 0xFF, 3 + 'z'}) == "?z");    // a lone 0xFF is no UTF-8
  CHECK(text({3 + 0xE2, 3 + 0x82}) == "??");   // a truncated sequence
  CHECK(text({260, 261, 285}) == "abz");       // pieces: 'a' + id % 26
  CHECK(valid_utf8_or_question_marks("\xF0\x9F\x98\x80!") == "\xF0\x9F\x98\x80!");
  CHECK(valid_utf8_or_question_marks("\xC0\xAF") == "??");       // overlong
  CHECK(valid_utf8_or_question_marks("\xED\xA0\x80") == "???");  // a surrogate
}

TEST_CASE(
    "the client counts a prompt's tokens as the server will: ids sent, or chat through the "
    "template") {
  const std::vector<int32_t> ids = {1, 3 + 'h', 3 + 'i'};
  CHECK(OpenAiRequestBody("completions", "m", 512).prompt_tokens(ids) == 3);
  CHECK_FALSE(OpenAiRequestBody("chat", "m", 512).prompt_tokens(ids));  // no tokenizer: unknown
  // A synthetic model's byte tokenizer with ChatML, as infergate serve runs it: one token per
  // byte of the rendered conversation, BOS first.
  const DatasetTokenizer synthetic =
      model_dataset_tokenizer(ModelSource{}, synthetic_vocabulary(512), 512);
  REQUIRE(synthetic.chat);
  const OpenAiRequestBody chat("chat", "m", 512, {}, synthetic);
  CHECK(json::parse(chat(ids, 4))["messages"][0]["content"] == "hi");
  const size_t rendered = render_chatml({{"user", "hi"}}).size();
  CHECK(chat.prompt_tokens(ids) == int(1 + rendered));
  CHECK(OpenAiRequestBody("completions", "m", 512, {}, synthetic).prompt_tokens(ids) == 3);
}

TEST_CASE("requests on the wire are complete HTTP/1.1 messages") {
  const HttpUrl url = parse_http_url("http://127.0.0.1:8000/p");
  const std::string post = http_post_json(url, "/v1/completions", HttpAccess("k"), "{}");
  CHECK(post.rfind("POST /p/v1/completions HTTP/1.1\r\nHost: 127.0.0.1:8000\r\n", 0) == 0);
  CHECK_THAT(post, Catch::Contains("Authorization: Bearer k\r\n") &&
                       Catch::Contains("Content-Length: 2\r\n\r\n{}") &&
                       Catch::Contains("Accept: text/event-stream"));
  CHECK_THAT(http_get(url, "/v1/models", {}), Catch::StartsWith("GET /p/v1/models HTTP/1.1\r\n") &&
                                                  Catch::Contains("Connection: close") &&
                                                  !Catch::Contains("Authorization"));
}

TEST_CASE("a sampled workload's bodies carry temperature, top_k, top_p and a seed per request") {
  SamplingSpec sampling;
  sampling.temperature = 0.8;
  sampling.top_k = 40;
  sampling.top_p = 0.95;
  sampling.seed = 7;
  const OpenAiRequestBody body("completions", "tiny", 32000, sampling);
  const json first = json::parse(body({1, 2}, 8, 0));
  const json second = json::parse(body({1, 2}, 8, 1));
  CHECK(first["temperature"] == 0.8);
  CHECK(first["top_k"] == 40);
  CHECK(first["top_p"] == 0.95);
  CHECK(first["seed"] == SamplingSpec::request_seed(7, 0));
  CHECK(first["seed"] != second["seed"]);
  CHECK(first["seed"].get<int64_t>() >= 0);         // OpenAI's seed is a signed integer
  CHECK(json::parse(body({1, 2}, 8, 0)) == first);  // the same request, the same seed
  // Greedy workloads send none of them (what servers default to).
  const json greedy = json::parse(OpenAiRequestBody("completions", "tiny", 32000)({1}, 8, 3));
  CHECK_FALSE(greedy.contains("temperature"));
  CHECK_FALSE(greedy.contains("seed"));
}

}  // namespace
}  // namespace infergate
