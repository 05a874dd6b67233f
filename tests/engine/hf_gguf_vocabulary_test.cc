// A tokenizer.json written as a GGUF vocabulary: the tables by hand on a small byte-level BPE, the
// GGUF loaded back tokenizes as the tokenizer.json does, GGUF's other tokenizer keys survive a
// second export, and what GGUF cannot say is refused naming the file and the JSON path; the other
// way, a GGUF's vocabulary written as tokenizer.json tokenizes as the GGUF does. (Real
// vocabularies against Hugging Face and llama.cpp: tests/interop/hf_gguf_tokenizers.sh.)
#include <catch2/catch.hpp>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "common/io/json_file.h"
#include "engine/model/gguf_tokenizer_data.h"
#include "engine/model/hf_gguf_vocabulary.h"
#include "engine/model/hf_tokenizer_files.h"
#include "engine/model/hf_tokenizer_of_gguf.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"
#include "engine/model/synthetic_model.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "model_formats_util.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

// GPT-2's byte-to-character table: printable bytes as themselves, the others from U+0100 up.
std::string byte_piece(int b) {
  const bool printable = (b >= '!' && b <= '~') || (b >= 0xA1 && b <= 0xAC) || b >= 0xAE;
  int code = b;
  if (!printable) {
    int n = 0;
    for (int c = 0; c < b; ++c) {
      if (!((c >= '!' && c <= '~') || (c >= 0xA1 && c <= 0xAC) || c >= 0xAE)) ++n;
    }
    code = 256 + n;
  }
  std::string s;
  if (code < 0x80) {
    s += char(code);
  } else {
    s += char(0xC0 | (code >> 6));
    s += char(0x80 | (code & 0x3F));
  }
  return s;
}

// A byte-level BPE over the 256 bytes, with merges for "he", "hel", "Ġhe", and two added tokens.
json small_tokenizer(const json& pre_tokenizer, const json& normalizer = nullptr) {
  json vocab = json::object();
  for (int b = 0; b < 256; ++b) vocab[byte_piece(b)] = b;
  vocab["he"] = 256;
  vocab["hel"] = 257;
  vocab["\xC4\xA0he"] = 258;
  return {{"version", "1.0"},
          {"added_tokens",
           {{{"id", 260}, {"content", "<|bos|>"}, {"special", true}},
            {{"id", 261}, {"content", "<tag>"}, {"special", false}}}},
          {"normalizer", normalizer},
          {"pre_tokenizer", pre_tokenizer},
          {"post_processor",
           {{"type", "TemplateProcessing"},
            {"single",
             {{{"SpecialToken", {{"id", "<|bos|>"}, {"type_id", 0}}}},
              {{"Sequence", {{"id", "A"}, {"type_id", 0}}}}}},
            {"special_tokens",
             {{"<|bos|>", {{"id", "<|bos|>"}, {"ids", {260}}, {"tokens", {"<|bos|>"}}}}}}}},
          {"decoder", {{"type", "ByteLevel"}}},
          {"model",
           {{"type", "BPE"},
            {"vocab", vocab},
            {"merges", {"h e", "he l", "\xC4\xA0 he"}},
            {"ignore_merges", false}}}};
}

json gpt2_byte_level() {
  return {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", true}};
}

std::string write_dir(testing::TempDir& dir, const std::string& name, const json& tokenizer,
                      const json& config = json::object()) {
  const std::string path = dir.file(name);
  std::filesystem::create_directories(path);
  std::ofstream(path + "/tokenizer.json") << tokenizer.dump();
  std::ofstream(path + "/tokenizer_config.json") << config.dump();
  return path;
}

// A micro model whose GGUF vocabulary is `hf`'s tokenizer.json, written to dir/m.gguf.
ModelWeights write_gguf_of(testing::TempDir& dir, const std::string& hf) {
  ModelWeights w = make_synthetic_model(testing::micro_config(), 3);
  w.vocab = vocabulary_for_gguf(w, {"safetensors", "", 0, hf});
  export_model(w, "gguf", dir.file("m.gguf"));
  return w;
}

// Plain text, added tokens inside words, whitespace runs and a multi-byte character.
const std::vector<std::string> kTexts = {"hello hello", "<tag>he<|bos|> x\n\n  hel",
                                         "h\xC3\xA9llo 123"};

}  // namespace

TEST_CASE("a byte-level tokenizer.json becomes GGUF's gpt2 tables, by hand", "[model][gguf]") {
  testing::TempDir dir;
  const std::string hf = write_dir(dir, "hf", small_tokenizer(gpt2_byte_level()),
                                   {{"chat_template", "{{ messages[0].content }}"}});
  const Vocabulary v = gguf_vocabulary_of_hf(hf, 300);
  CHECK(v.model == "gpt2");
  CHECK(v.pre == "gpt-2");
  REQUIRE(v.size() == 300);
  CHECK(v.tokens[257] == "hel");
  CHECK(v.types[257] == TokenType::kNormal);
  CHECK(v.tokens[259] == "[PAD259]");
  CHECK(v.types[259] == TokenType::kUnused);
  CHECK(v.types[260] == TokenType::kControl);
  CHECK(v.types[261] == TokenType::kUserDefined);
  CHECK(v.merges == std::vector<std::string>{"h e", "he l", "\xC4\xA0 he"});
  CHECK(v.bos_id == 260);
  CHECK(v.add_bos == true);
  CHECK(v.unk_id == -1);
  CHECK(v.chat_template == "{{ messages[0].content }}");
  CHECK_THROWS_WITH(gguf_vocabulary_of_hf(hf, 200),
                    Catch::Contains("262 token ids, more than the model's vocab_size 200"));
}

TEST_CASE(
    "a GGUF written from a tokenizer.json directory tokenizes as the directory does, and "
    "keeps its keys when written again",
    "[model][gguf]") {
  testing::TempDir dir;
  const std::string hf = write_dir(dir, "hf", small_tokenizer(gpt2_byte_level()),
                                   {{"chat_template", "{{ bos_token }}{{ messages[0].content }}"}});
  write_gguf_of(dir, hf);
  const ModelSource gguf{"gguf", "", 0, dir.file("m.gguf")};
  const ModelTokenizer from_gguf = load_model_tokenizer(gguf, Vocabulary{});
  const ModelTokenizer from_hf = load_model_tokenizer({"safetensors", "", 0, hf}, Vocabulary{});
  REQUIRE(from_gguf.tokenizer);
  for (const std::string& text : kTexts) {
    INFO(text);
    CHECK(from_gguf.tokenizer->encode(text, true) == from_hf.tokenizer->encode(text, true));
  }
  CHECK(from_gguf.tokenizer->encode("hel", true) == std::vector<int32_t>{260, 257});
  CHECK_FALSE(from_gguf.chat.is_chatml());
  // Loaded and written again (as quantize does), the GGUF keeps pre, add_bos and the template.
  ModelWeights back = load_model(gguf);
  export_model(back, "gguf", dir.file("again.gguf"));
  const GgufTokenizerData again = read_gguf_tokenizer(dir.file("again.gguf"));
  CHECK(again.pre == "gpt-2");
  CHECK(again.add_bos);
  CHECK(again.chat_template == "{{ bos_token }}{{ messages[0].content }}");
}

TEST_CASE("what GGUF cannot say of a tokenizer.json is refused by its JSON path", "[model][gguf]") {
  testing::TempDir dir;
  json fallback = small_tokenizer(gpt2_byte_level());
  fallback["model"]["byte_fallback"] = true;
  json split = small_tokenizer(
      {{"type", "Sequence"},
       {"pretokenizers",
        {{{"type", "Split"}, {"pattern", {{"Regex", "\\\\p{L}+|x"}}}, {"behavior", "Isolated"}},
         {{"type", "ByteLevel"}, {"add_prefix_space", false}, {"use_regex", false}}}}});
  json lowercase = small_tokenizer(gpt2_byte_level(), {{"type", "Lowercase"}});
  json metaspace = small_tokenizer({{"type", "Metaspace"}, {"replacement", "\xE2\x96\x81"}});
  const std::vector<std::pair<json, std::string>> cases = {
      {fallback, "$.model.byte_fallback: SentencePiece-style BPE"},
      {split, "$.pre_tokenizer: no tokenizer.ggml.pre name stands for its patterns"},
      {lowercase, "$.normalizer: GGUF has no normalizer"},
      {metaspace, "$.pre_tokenizer: not ByteLevel"},
  };
  int n = 0;
  for (const auto& [tokenizer, message] : cases) {
    INFO(message);
    const std::string path = write_dir(dir, "t" + std::to_string(n++), tokenizer);
    CHECK_THROWS_WITH(gguf_vocabulary_of_hf(path, 300),
                      Catch::Contains(path + "/tokenizer.json: " + message));
  }
  // An NFC normalizer is let go, as llama.cpp's converter lets it go.
  const std::string nfc =
      write_dir(dir, "nfc", small_tokenizer(gpt2_byte_level(), {{"type", "NFC"}}));
  CHECK(gguf_vocabulary_of_hf(nfc, 300).pre == "gpt-2");
}

TEST_CASE("a safetensors directory written from a Hugging Face one gets its tokenizer files",
          "[model][safetensors]") {
  testing::TempDir dir;
  const std::string hf = write_dir(dir, "hf", small_tokenizer(gpt2_byte_level()));
  std::ofstream(hf + "/chat_template.jinja") << "{{ messages }}";
  std::filesystem::create_directories(dir.file("out"));
  std::ofstream(dir.file("out") + "/tokenizer.json") << "stale";
  const TokenizerFilesToWrite files = tokenizer_files_for({"safetensors", "", 0, hf});
  CHECK(write_tokenizer_files(files, dir.file("out")) == 3);
  CHECK(load_model_tokenizer({"safetensors", "", 0, dir.file("out")}, Vocabulary{})
            .tokenizer->encode("hel", true) == std::vector<int32_t>{260, 257});
  CHECK(write_tokenizer_files(files, hf) == 0);  // in place
  CHECK(tokenizer_files_for({"synthetic", "tiny", 0, ""}).files.empty());
}

TEST_CASE("a GGUF's byte-level vocabulary is written as a tokenizer.json that tokenizes alike",
          "[model][safetensors][gguf]") {
  testing::TempDir dir;
  const std::string hf = write_dir(dir, "hf", small_tokenizer(gpt2_byte_level()),
                                   {{"chat_template", "{{ bos_token }}{{ messages[0].content }}"}});
  const ModelWeights w = write_gguf_of(dir, hf);
  const ModelSource gguf{"gguf", "", 0, dir.file("m.gguf")};
  const TokenizerFilesToWrite files = tokenizer_files_for(gguf);
  REQUIRE(files.not_written.empty());
  CHECK(write_tokenizer_files(files, dir.file("out")) == 2);
  const ModelSource out{"safetensors", "", 0, dir.file("out")};
  const ModelTokenizer from_out = load_model_tokenizer(out, Vocabulary{});
  const ModelTokenizer from_gguf = load_model_tokenizer(gguf, Vocabulary{});
  REQUIRE(from_out.tokenizer);
  for (const std::string& text : kTexts) {
    INFO(text);
    const std::vector<int32_t> ids = from_gguf.tokenizer->encode(text, true);
    CHECK(from_out.tokenizer->encode(text, true) == ids);
    CHECK(from_out.tokenizer->decode(ids) == from_gguf.tokenizer->decode(ids));
  }
  CHECK(from_out.tokenizer->encode("hel", true) == std::vector<int32_t>{260, 257});
  const json written = read_json_file(dir.file("out") + "/tokenizer.json");
  CHECK(written["added_tokens"][0]["special"] == true);
  CHECK(written["added_tokens"][1]["special"] == false);
  CHECK_FALSE(written["model"]["vocab"].contains("[PAD259]"));  // unused ids are left out
  CHECK(written["model"]["vocab"]["hel"] == 257);
  // Added tokens are in the BPE vocab too: Hugging Face renumbers one its model lacks.
  CHECK(written["model"]["vocab"]["<|bos|>"] == 260);
  CHECK(read_json_file(dir.file("out") + "/tokenizer_config.json")["chat_template"] ==
        "{{ bos_token }}{{ messages[0].content }}");
  // Back to GGUF from the written directory: the tables of the first GGUF.
  const Vocabulary again = gguf_vocabulary_of_hf(dir.file("out"), w.config.vocab_size);
  CHECK(again.tokens == w.vocab.tokens);
  CHECK(again.types == w.vocab.types);
  CHECK(again.merges == w.vocab.merges);
  CHECK(again.pre == "gpt-2");
  CHECK(again.add_bos == true);
}

TEST_CASE("what tokenizer.json cannot hold of a GGUF vocabulary is said, and nothing written",
          "[model][safetensors][gguf]") {
  testing::TempDir dir;
  export_model(make_synthetic_model(testing::micro_config(), 3), "gguf", dir.file("spm.gguf"));
  const TokenizerFilesToWrite spm = tokenizer_files_for({"gguf", "", 0, dir.file("spm.gguf")});
  CHECK(spm.files.empty());
  CHECK_THAT(spm.not_written,
             Catch::Contains(dir.file("spm.gguf") + ": tokenizer.ggml.model "
                                                    "'llama' (SentencePiece) is not written"));
  GgufTokenizerData twice;
  twice.vocab.model = "gpt2";
  twice.vocab.tokens = {"a", "b", "a"};
  twice.vocab.types.assign(3, TokenType::kNormal);
  CHECK_THROWS_WITH(hf_tokenizer_of_gguf(twice),
                    Catch::Contains("token 'a' is at ids 0 and 2; tokenizer.json's vocab holds "
                                    "one id per piece"));
  twice.vocab.tokens[2] = "c";
  twice.pre = "no-such-pre";
  CHECK_THROWS_WITH(hf_tokenizer_of_gguf(twice),
                    Catch::Contains("tokenizer.ggml.pre 'no-such-pre' is not supported"));
}
