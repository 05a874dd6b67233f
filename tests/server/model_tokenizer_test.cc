// The server's text tokenizer comes from the model: a GGUF file's own vocabulary and merges.
#include "engine/model/model_tokenizer.h"

#include <catch2/catch.hpp>

#include "../engine/gpt2_test_vocab.h"
#include "../engine/model_formats_util.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/synthetic_model.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "server/openai/completion_request.h"

namespace infergate {
namespace {

TEST_CASE("model tokenizer: a GGUF model's text prompts go through its own BPE merges") {
  testing::TempDir dir;
  ModelWeights w = make_synthetic_model(testing::micro_config(), 3);
  Vocabulary& v = w.vocab;
  v = Vocabulary{};
  v.model = "gpt2";
  for (int b = 0; b < 256; ++b) v.tokens.push_back(gpt2_bytes_to_text(std::string(1, char(b))));
  v.tokens.insert(v.tokens.end(), {"he", "ll", "hell", "hello", "\xC4\xA0w", "or", "ld"});
  v.merges = {"h e", "l l", "he ll", "hell o", "\xC4\xA0 w", "o r", "l d"};
  finish_gpt2_vocab(v, testing::micro_config().vocab_size);
  write_gguf(w, dir.file("bpe.gguf"));

  const ModelTokenizer t = load_model_tokenizer({"gguf", "", 0, dir.file("bpe.gguf")}, v);
  REQUIRE(t.tokenizer);
  CHECK(t.description == "gguf gpt2 (byte-level BPE, pre-tokenizer default), " +
                             std::to_string(v.size()) + " tokens");
  CHECK_FALSE(t.add_bos);  // GPT-2 vocabularies ask for no BOS
  const ServedModel model{"m", int32_t(v.size()), 64, t.tokenizer.get(), t.add_bos};
  // hello (259); " world": Ġw (260), or (261), ld (262).
  CHECK(parse_completion_request(R"({"prompt": "hello world"})", model).prompt ==
        std::vector<int32_t>{259, 260, 261, 262});
}

TEST_CASE("model tokenizer: synthetic and safetensors models use bytes, failures say why") {
  const Vocabulary v = synthetic_vocabulary(300);
  const ModelTokenizer synthetic = load_model_tokenizer({"synthetic", "tiny", 0, ""}, v);
  CHECK(synthetic.tokenizer);
  CHECK(synthetic.description == "byte (synthetic model)");
  const ModelTokenizer none = load_model_tokenizer({"gguf", "", 0, "/nonexistent.gguf"}, v);
  CHECK_FALSE(none.tokenizer);
  CHECK_THAT(none.description,
             Catch::StartsWith("none (token ids only): ") && Catch::Contains("/nonexistent.gguf"));
  // safetensors models carry a placeholder synthetic vocabulary: its byte tokenizer, labelled so.
  const ModelTokenizer placeholder = load_model_tokenizer({"safetensors", "", 0, "/x"}, v);
  CHECK(placeholder.tokenizer);
  CHECK_THAT(placeholder.description,
             Catch::StartsWith("byte (placeholder vocabulary of 300 tokens"));
  // One too small to hold the byte tokens (config vocab_size < 259) has none, and says why.
  const ModelTokenizer tiny = load_model_tokenizer({"safetensors", "", 0, "/x"}, Vocabulary{});
  CHECK_FALSE(tiny.tokenizer);
  CHECK_THAT(tiny.description, Catch::Contains("<0x00>"));
}

}  // namespace
}  // namespace infergate
