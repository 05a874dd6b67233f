// Tokenizers built from GGUF metadata: read_gguf_tokenizer reads back what write_gguf stored,
// and make_tokenizer picks the algorithm by tokenizer.ggml.model.
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/model/gguf_tokenizer_data.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/model_load_error.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/hf_tokenizer.h"
#include "engine/tokenizer/spm_tokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "gpt2_test_vocab.h"
#include "model_formats_util.h"

using namespace infergate;
using infergate::testing::TempDir;

namespace {

// A gpt2 vocabulary of exactly `size` tokens: the 256 byte characters, merged pieces, padding,
// and <|endoftext|> last.
Vocabulary gpt2_vocab(int size) {
  Vocabulary v;
  v.model = "gpt2";
  for (int b = 0; b < 256; ++b) v.tokens.push_back(gpt2_bytes_to_text(std::string(1, char(b))));
  v.tokens.insert(v.tokens.end(), {"he", "ll", "hell", "hello", "\xC4\xA0w", "or", "ld"});
  v.merges = {"h e", "l l", "he ll", "hell o", "\xC4\xA0 w", "o r", "l d"};
  finish_gpt2_vocab(v, size);
  return v;
}

}  // namespace

TEST_CASE("gguf tokenizer data reads back the llama vocabulary write_gguf stored", "[tokenizer]") {
  TempDir dir;
  const ModelWeights w = make_synthetic_model(testing::micro_config(), 3);
  write_gguf(w, dir.file("spm.gguf"));
  const GgufTokenizerData data = read_gguf_tokenizer(dir.file("spm.gguf"));
  REQUIRE(data.vocab.model == "llama");
  REQUIRE(data.vocab.tokens == w.vocab.tokens);
  REQUIRE(data.vocab.scores == w.vocab.scores);
  REQUIRE(data.vocab.types == w.vocab.types);
  REQUIRE(data.vocab.bos_id == w.vocab.bos_id);
  REQUIRE(data.vocab.eos_id == w.vocab.eos_id);
  REQUIRE(data.add_bos);
  REQUIRE(data.add_space_prefix);

  const std::unique_ptr<Tokenizer> tok =
      make_tokenizer(data.vocab, data.pre, data.add_space_prefix);
  REQUIRE(dynamic_cast<const SpmTokenizer*>(tok.get()) != nullptr);
  REQUIRE(tok->decode(tok->encode("round trip \xC3\xA9", true)) == "round trip \xC3\xA9");
}

TEST_CASE("gguf tokenizer data reads back a gpt2 vocabulary and its merges", "[tokenizer]") {
  TempDir dir;
  ModelWeights w = make_synthetic_model(testing::micro_config(), 3);
  w.vocab = gpt2_vocab(testing::micro_config().vocab_size);
  write_gguf(w, dir.file("bpe.gguf"));
  const GgufTokenizerData data = read_gguf_tokenizer(dir.file("bpe.gguf"));
  REQUIRE(data.vocab.model == "gpt2");
  REQUIRE(data.vocab.tokens == w.vocab.tokens);
  REQUIRE(data.vocab.merges == w.vocab.merges);
  REQUIRE(data.vocab.eos_id == w.vocab.eos_id);
  REQUIRE_FALSE(data.add_bos);  // write_gguf asks for BOS only with llama vocabularies

  const std::unique_ptr<Tokenizer> tok = make_tokenizer(data.vocab);
  REQUIRE(dynamic_cast<const HfTokenizer*>(tok.get()) != nullptr);
  // hello (id 259); " world": Ġw (260), or (261), ld (262); no merge joins them.
  REQUIRE(tok->encode("hello world", false) == std::vector<int32_t>{259, 260, 261, 262});
}

TEST_CASE("gguf tokenizer data names the file it cannot read", "[tokenizer]") {
  REQUIRE_THROWS_AS(read_gguf_tokenizer("/nonexistent/tok.gguf"), ModelLoadError);
  REQUIRE_THROWS_WITH(read_gguf_tokenizer("/nonexistent/tok.gguf"),
                      Catch::Contains("/nonexistent/tok.gguf"));
}

TEST_CASE("make_tokenizer rejects tokenizer models it does not implement", "[tokenizer]") {
  Vocabulary v = synthetic_vocabulary(300);
  v.model = "bert";
  REQUIRE_THROWS_WITH(make_tokenizer(v), Catch::Contains("'bert'"));
}
