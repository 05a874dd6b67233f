// `infergate serve` as a command: the flags it refuses, the names it answers to, the tokenizer
// it shares with `generate`, and what it does when its memory-mapped model file is truncated.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "engine/model/gguf_writer.h"
#include "engine/model/synthetic_model.h"
#include "tests/engine/model_formats_util.h"
#include "tests/http/http_test_support.h"
#include "tests/http/raw_http.h"

namespace infergate::test {
namespace {

using nlohmann::json;

// `infergate serve --model MODEL` on a free port.
std::unique_ptr<ServerProcess> serve_model(const std::string& model) {
  return std::make_unique<ServerProcess>(std::vector<std::string>{
      INFERGATE_BINARY, "serve", "--model", model, "--port", "0", "--threads", "2"});
}

json post_json(const std::string& url, const std::string& target, const json& body) {
  return json::parse(body_of(http_request(url, "POST", target, body.dump())));
}

TEST_CASE("serve refuses bad flags with exit 2 naming the flag and its range") {
  struct BadFlag {
    std::vector<std::string> flags;
    const char* message;
  };
  const std::vector<BadFlag> table = {
      {{"--api-key", ""}, "--api-key is empty, which would turn authentication off"},
      {{"--port", "-1"}, "--port -1 is out of range (0 to 65535"},
      {{"--port", "65536"}, "--port 65536 is out of range (0 to 65535"},
      {{"--max-connections", "0"}, "--max-connections 0 is out of range (1 to 1000000)"},
      {{"--header-timeout-s", "0"}, "--header-timeout-s 0 is out of range (above 0 to 86400)"},
      {{"--body-timeout-s", "-1"}, "--body-timeout-s -1 is out of range"},
      {{"--idle-timeout-s", "1e9"}, "--idle-timeout-s 1000000000 is out of range"},
      {{"--http-threads", "100000"}, "--http-threads 100000 is out of range (1 to 256)"},
      {{"--served-model-name", ""}, "--served-model-name: each name must be 1 to 256 bytes"},
  };
  for (const BadFlag& bad : table) {
    std::vector<std::string> argv = {INFERGATE_BINARY, "serve"};
    // Should a flag pass by mistake, a free port, not 8000.
    if (bad.flags[0] != "--port") argv.insert(argv.end(), {"--port", "0"});
    argv.insert(argv.end(), bad.flags.begin(), bad.flags.end());
    INFO(bad.flags[0] + " " + bad.flags[1]);
    const CommandResult r = run_command(argv, 60);
    CHECK(r.status == 2);
    CHECK_THAT(r.err, Catch::Contains(bad.message));
    CHECK(r.out.find("listening") == std::string::npos);
  }
}

TEST_CASE("serve --served-model-name answers to every name and reports the first") {
  auto server = start_serve({"--served-model-name", "org/first", "second"});
  const json models = json::parse(body_of(http_request(server->url(), "GET", "/v1/models")));
  REQUIRE(models["data"].size() == 2);
  CHECK(models["data"][0]["id"] == "org/first");
  CHECK(models["data"][1]["id"] == "second");
  const json body = {{"model", "second"}, {"prompt", {1, 2, 3}}, {"max_tokens", 2}};
  const json answer = post_json(server->url(), "/v1/completions", body);
  CHECK(answer["model"] == "org/first");
  CHECK(answer["choices"][0]["token_ids"].size() == 2);
  json other = body;
  other["model"] = "tiny";  // --model is no longer a name it answers to
  const std::string refused = http_request(server->url(), "POST", "/v1/completions", other.dump());
  CHECK(status_of(refused) == 404);
  CHECK_THAT(body_of(refused), Catch::Contains("'org/first', 'second'"));
  CHECK(server->terminate() == 0);
}

// A GGUF whose SentencePiece vocabulary spells "Once upon a time" as four pieces (each word's
// prefixes are pieces too, so SentencePiece's pairwise merges can reach the whole word).
void write_spm_model(const std::string& path) {
  ModelWeights w = make_synthetic_model(testing::small_test_config(), 11);
  int id = 300;
  for (const char* word : {"Once", "upon", "a", "time"}) {
    const std::string piece = "\xE2\x96\x81" + std::string(word);
    for (size_t n = 1; n <= std::string(word).size(); ++n) {
      w.vocab.tokens[size_t(id)] = piece.substr(0, 3 + n);
      w.vocab.scores[size_t(id++)] = 0;
    }
  }
  write_gguf(w, path);
}

TEST_CASE("generate and serve tokenize a SentencePiece GGUF alike and agree on the greedy text") {
  testing::TempDir dir;
  const std::string model = dir.file("spm.gguf");
  write_spm_model(model);
  const std::string prompt = "Once upon a time";
  const CommandResult generated =
      run_command({INFERGATE_BINARY, "generate", "--model", model, "--prompt", prompt,
                   "--max-tokens", "12", "--threads", "2"});
  REQUIRE(generated.status == 0);
  CHECK_THAT(generated.err, Catch::Contains("tokenizer: gguf llama (SentencePiece), 512 tokens"));
  // BOS and the four words: the model's own pieces, not 16 bytes.
  CHECK_THAT(generated.out, Catch::Contains("1 request(s), 5 prompt tokens"));
  REQUIRE(generated.out.rfind(prompt, 0) == 0);
  const std::string generated_text =
      generated.out.substr(prompt.size(), generated.out.find("\n---") - prompt.size());

  auto server = serve_model(model);
  CHECK_THAT(server->output(),
             Catch::Contains("tokenizer: gguf llama (SentencePiece), 512 tokens"));
  const json answer =
      post_json(server->url(), "/v1/completions",
                {{"prompt", prompt}, {"max_tokens", 12}, {"temperature", 0}, {"ignore_eos", true}});
  CHECK(answer["usage"]["prompt_tokens"] == 5);
  CHECK(answer["choices"][0]["text"] == generated_text);
  CHECK(server->terminate() == 0);
}

TEST_CASE(
    "a served GGUF truncated in place ends the server with status 135 and one line naming it") {
  testing::TempDir dir;
  const std::string model = dir.file("served.gguf");
  write_gguf(make_synthetic_model(testing::small_test_config(), 5), model);
  auto server = serve_model(model);
  REQUIRE(::truncate(model.c_str(), 4096) == 0);
  http_request(server->url(), "POST", "/v1/completions",
               json{{"prompt", {1, 2, 3}}, {"max_tokens", 4}}.dump(), 30);
  CHECK(server->wait(30) == 135);
  CHECK_THAT(server->output(),
             Catch::Contains("SIGBUS reading the memory-mapped model " +
                             std::filesystem::canonical(model).string() +
                             ": the file was truncated or rewritten while being served"));
}

}  // namespace
}  // namespace infergate::test
