// The server's text tokenizer comes from the model: a GGUF file's own vocabulary and merges.
#include "engine/server/model_tokenizer.h"

#include <catch2/catch.hpp>

#include "../engine/gpt2_test_vocab.h"
#include "../engine/model_formats_util.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/synthetic_model.h"
#include "engine/server/completion_request.h"
#include "engine/tokenizer/gpt2_byte_map.h"

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
  CHECK_FALSE(t.add_bos);  // GPT-2 vocabularies ask for no BOS
  const ServedModel model{"m", int32_t(v.size()), 64, t.tokenizer.get(), t.add_bos};
  // hello (259); " world": Ġw (260), or (261), ld (262).
  CHECK(parse_completion_request(R"({"prompt": "hello world"})", model).prompt ==
        std::vector<int32_t>{259, 260, 261, 262});
}

TEST_CASE("model tokenizer: synthetic models use bytes, other files say why there is none") {
  const Vocabulary v = synthetic_vocabulary(300);
  CHECK(load_model_tokenizer({"synthetic", "tiny", 0, ""}, v).tokenizer);
  const ModelTokenizer none = load_model_tokenizer({"gguf", "", 0, "/nonexistent.gguf"}, v);
  CHECK_FALSE(none.tokenizer);
  CHECK_THAT(none.why_none, Catch::Contains("/nonexistent.gguf"));
  CHECK_FALSE(load_model_tokenizer({"safetensors", "", 0, "/x"}, v).tokenizer);
}

}  // namespace
}  // namespace infergate
