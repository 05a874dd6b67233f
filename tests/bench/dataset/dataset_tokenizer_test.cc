// Text datasets go through the target model's own tokenizer, as generate and serve do: a GGUF's
// SentencePiece vocabulary gives the same ids to the dataset as load_model_tokenizer; synthetic
// presets and targets without a model keep the byte tokenizer, and `run` names which it used.
#include "bench/dataset/dataset_tokenizer.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "bench/dataset/dataset.h"
#include "bench/dataset/dataset_error.h"
#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"
#include "engine/model/synthetic_model.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "tests/engine/model_formats_util.h"

using namespace infergate;
using infergate::testing::TempDir;

namespace {

const std::string kSpace = "\xE2\x96\x81";  // SentencePiece's "▁"

// The micro model as a GGUF whose llama vocabulary can merge "▁h" + "i" into "▁hi" (id 261), so
// SentencePiece and the byte tokenizer give different ids for "hi there".
std::string write_spm_gguf(const TempDir& dir) {
  ModelWeights w = make_synthetic_model(testing::micro_config(), 3);
  w.vocab.tokens[260] = kSpace + "h";
  w.vocab.tokens[261] = kSpace + "hi";
  const std::string path = dir.file("spm.gguf");
  write_gguf(w, path);
  return path;
}

DatasetSpec text_jsonl(const std::string& path) {
  DatasetSpec spec;
  spec.type = "jsonl";
  spec.path = path;
  spec.format = "text";
  return spec;
}

// std::cerr's text while in scope.
class CerrCapture {
 public:
  CerrCapture() : old_(std::cerr.rdbuf(text_.rdbuf())) {}
  ~CerrCapture() { std::cerr.rdbuf(old_); }
  std::string text() const { return text_.str(); }

 private:
  std::ostringstream text_;
  std::streambuf* old_;
};

}  // namespace

TEST_CASE("a text dataset for a GGUF model gets the ids of the model's SentencePiece tokenizer",
          "[bench][dataset]") {
  TempDir dir;
  const ModelSource source{"gguf", "", 0, write_spm_gguf(dir)};
  testing::write_text(dir.file("t.jsonl"), "{\"prompt\": \"hi there\", \"output_tokens\": 3}\n");
  const ModelWeights w = load_model(source);

  const DatasetTokenizer tok = model_dataset_tokenizer(source, w.vocab, w.config.vocab_size);
  CHECK(tok.description == "gguf llama (SentencePiece), 300 tokens");
  const auto requests =
      make_dataset(text_jsonl("t.jsonl"), 2, 0, w.config.vocab_size, dir.path().string(), &tok);
  REQUIRE(requests.size() == 2);

  const ModelTokenizer model = load_model_tokenizer(source, w.vocab);
  REQUIRE(model.tokenizer);
  const std::vector<int32_t> expected = model.tokenizer->encode("hi there", model.add_bos);
  CHECK(requests[0].prompt == expected);
  CHECK(requests[1].prompt == expected);
  CHECK(expected[0] == 1);    // BOS: the GGUF asks for it
  CHECK(expected[1] == 261);  // "▁hi", one merged piece
  const std::vector<int32_t> bytes =
      ByteTokenizer(synthetic_vocabulary(300)).encode("hi there", true);
  CHECK(requests[0].prompt != bytes);
  CHECK(requests[0].prompt.size() == bytes.size() - 1);  // "▁hi" for "h", "i"; "▁" for " "
}

TEST_CASE("a sharegpt dataset counts the reply in the model's tokens too", "[bench][dataset]") {
  TempDir dir;
  const ModelSource source{"gguf", "", 0, write_spm_gguf(dir)};
  testing::write_text(dir.file("s.jsonl"),
                      "{\"conversations\": [{\"from\": \"human\", \"value\": \"hi\"},"
                      " {\"from\": \"gpt\", \"value\": \"hi hi\"}]}\n");
  const ModelWeights w = load_model(source);
  const DatasetTokenizer tok = model_dataset_tokenizer(source, w.vocab, w.config.vocab_size);
  DatasetSpec spec = text_jsonl(dir.file("s.jsonl"));
  spec.format = "sharegpt";
  const auto requests = make_dataset(spec, 1, 0, w.config.vocab_size, "", &tok);
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].prompt == std::vector<int32_t>{1, 261});
  CHECK(requests[0].max_tokens == 2);  // "▁hi▁hi" (5 bytes as the byte tokenizer counts it)
}

TEST_CASE("synthetic presets keep the byte tokenizer and its ids", "[bench][dataset]") {
  const ModelSource preset{"synthetic", "tiny", 0, ""};
  const DatasetTokenizer tok = model_dataset_tokenizer(preset, synthetic_vocabulary(512), 512);
  CHECK(tok.description == "byte (synthetic model)");
  CHECK(tok.add_bos);
  CHECK(tok.tokenizer->encode("hi there", tok.add_bos) ==
        ByteTokenizer(synthetic_vocabulary(512)).encode("hi there", true));
}

TEST_CASE("a model whose tokenizer cannot be read falls back to bytes and says why",
          "[bench][dataset]") {
  const ModelSource missing{"gguf", "", 0, "/nonexistent/model.gguf"};
  const DatasetTokenizer tok = model_dataset_tokenizer(missing, Vocabulary{}, 300);
  CHECK_THAT(tok.description,
             Catch::StartsWith("byte over a synthetic vocabulary of 300 tokens (the model has "
                               "none (token ids only): ") &&
                 Catch::Contains("/nonexistent/model.gguf"));
  CHECK(tok.tokenizer->encode("a", true) ==
        ByteTokenizer(synthetic_vocabulary(300)).encode("a", true));
}

TEST_CASE("a text prompt that gives no tokens is refused with its file and line",
          "[bench][dataset]") {
  TempDir dir;
  testing::write_text(dir.file("e.jsonl"), "{\"prompt\": \"\", \"output_tokens\": 3}\n");
  DatasetTokenizer no_bos = byte_dataset_tokenizer(300, "test");
  no_bos.add_bos = false;
  CHECK_THROWS_WITH(make_dataset(text_jsonl(dir.file("e.jsonl")), 1, 0, 300, "", &no_bos),
                    Catch::Contains("e.jsonl:1: \"prompt\" \"\" has no tokens (tokenizer: byte"));
}

// Runs dir/w.json quietly into dir/out.json; `said` gets what it wrote to stderr.
RunOutcome run_quietly(const TempDir& dir, std::string& said) {
  RunOptions o;
  o.out_path = dir.file("out.json");
  o.quiet = true;
  const CerrCapture cerr;
  RunOutcome outcome = run_workload(load_workload_file(dir.file("w.json"), {}), o);
  said = cerr.text();
  return outcome;
}

TEST_CASE("run sends a GGUF model's own token ids for a text dataset and names the tokenizer",
          "[bench][run]") {
  TempDir dir;
  write_spm_gguf(dir);
  testing::write_text(dir.file("t.jsonl"), "{\"prompt\": \"hi there\", \"output_tokens\": 2}\n");
  testing::write_text(dir.file("w.json"), R"({"schema": "infergate.workload/v1", "name": "spm",
      "target": {"type": "engine", "model": {"gguf": "spm.gguf"}}, "record_requests": true,
      "dataset": {"type": "jsonl", "path": "t.jsonl", "format": "text"},
      "load": {"mode": "closed", "concurrency": 1, "num_requests": 2}})");
  std::string said;
  const RunOutcome outcome = run_quietly(dir, said);
  REQUIRE_FALSE(outcome.incomplete);
  CHECK_THAT(said, Catch::Contains("dataset tokenizer: gguf llama (SentencePiece), 300 tokens\n"));
  const nlohmann::json& requests = outcome.results["points"][0]["repetitions"][0]["requests"];
  REQUIRE(requests.size() == 2);
  for (const nlohmann::json& r : requests) CHECK(r["input_tokens"] == 8);  // BOS ▁hi ▁ t h e r e
}

TEST_CASE("run names the byte tokenizer for an echo target's text dataset", "[bench][run]") {
  TempDir dir;
  testing::write_text(dir.file("t.jsonl"), "{\"prompt\": \"hi there\", \"output_tokens\": 2}\n");
  testing::write_text(dir.file("w.json"), R"({"schema": "infergate.workload/v1", "name": "echo",
      "target": {"type": "echo"}, "record_requests": true,
      "dataset": {"type": "jsonl", "path": "t.jsonl", "format": "text"},
      "load": {"mode": "closed", "concurrency": 1, "num_requests": 1}})");
  std::string said;
  const RunOutcome outcome = run_quietly(dir, said);
  CHECK_THAT(said, Catch::Contains("dataset tokenizer: byte over a synthetic vocabulary of 32000 "
                                   "tokens (echo target)\n"));
  const nlohmann::json& requests = outcome.results["points"][0]["repetitions"][0]["requests"];
  REQUIRE(requests.size() == 1);
  CHECK(requests[0]["input_tokens"] == 9);  // BOS and the 8 bytes
}
