// An openai target without target.tokenizer has no model file to take a tokenizer from: its text
// dataset is tokenized byte by byte over the server's vocabulary size, as before, and `run` says
// so and that the server's own tokenizer may count the same text differently.
// (With target.tokenizer: tests/interop/hf_chat_token_counts.sh, on a real vocabulary.)
#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "tests/http/http_test_support.h"
#include "tests/temp_dir.h"

namespace infergate::test {
namespace {

using nlohmann::json;

TEST_CASE("an openai target's text dataset uses bytes over the server's vocabulary and says so") {
  testing::TempDir dir;
  std::ofstream(dir.file("t.jsonl")) << "{\"prompt\": \"hi there\", \"output_tokens\": 2}\n";
  auto echo = start_echo({"--vocab-size", "4096"});
  const Workload w =
      http_workload(echo->url(), {{"dataset",
                                   {{"type", "jsonl"},
                                    {"path", dir.file("t.jsonl")},
                                    {"format", "text"},
                                    {"input_tokens", nullptr},
                                    {"output_tokens", nullptr}}},
                                  {"load", {{"num_requests", 2}, {"warmup_requests", 0}}}});
  std::ostringstream said;
  std::streambuf* const old = std::cerr.rdbuf(said.rdbuf());
  json results;
  try {
    results = run_and_read_back(w);
  } catch (...) {
    std::cerr.rdbuf(old);
    throw;
  }
  std::cerr.rdbuf(old);
  CHECK_THAT(said.str(), Catch::Contains("dataset tokenizer: byte over a synthetic vocabulary of "
                                         "4096 tokens (openai target without target.tokenizer: "
                                         "the server may tokenize the text differently)\n"));
  const std::vector<json> records = measured_records(results);
  REQUIRE(records.size() == 2);
  for (const json& r : records) CHECK(r["input_tokens"] == 9);  // BOS and the 8 bytes
  CHECK(echo->terminate() == 0);
}

}  // namespace
}  // namespace infergate::test
