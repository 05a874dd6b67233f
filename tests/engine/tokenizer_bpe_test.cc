// GPT-2 byte-level BPE of GGUF vocabularies: the byte map, GPT-2's split pattern, and the BPE
// tokenizer make_gguf_bpe_tokenizer builds against encodings worked out by hand on a tiny
// vocabulary (lowest merge rank first, leftmost on ties).
#include <catch2/catch.hpp>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/tokenizer/gguf_pre_tokenizers.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

using namespace infergate;

namespace {

using Words = std::vector<std::string>;

// The 256 byte characters (byte b is id b), then `pieces`, with `merges` in rank order.
Vocabulary bpe_vocab(const Words& pieces, const Words& merges) {
  Vocabulary v;
  v.model = "gpt2";
  for (int b = 0; b < 256; ++b) v.tokens.push_back(gpt2_bytes_to_text(std::string(1, char(b))));
  v.tokens.insert(v.tokens.end(), pieces.begin(), pieces.end());
  v.tokens.push_back("<|endoftext|>");
  v.types.assign(v.tokens.size(), TokenType::kNormal);
  v.types.back() = TokenType::kControl;
  v.bos_id = v.eos_id = static_cast<int32_t>(v.tokens.size() - 1);
  v.merges = merges;
  return v;
}

int32_t id_of(const Vocabulary& v, const std::string& piece) {
  for (size_t i = 0; i < v.tokens.size(); ++i) {
    if (v.tokens[i] == piece) return static_cast<int32_t>(i);
  }
  throw std::invalid_argument("no piece " + piece);
}

// GPT-2's split pattern alone (no byte spelling): the words as text.
Words gpt2_pre_tokenize(const std::string& text) {
  const std::vector<PreTokenizerStep> steps = {
      PreTokenizerStep::split_pattern(kGpt2SplitPattern, SplitBehavior::kIsolated, false)};
  Words words;
  for (const PreTokenPiece& p : pre_tokenize(steps, text, true)) words.push_back(p.text);
  return words;
}

std::unique_ptr<HfTokenizer> gpt2_tokenizer(const Vocabulary& v) {
  return make_gguf_bpe_tokenizer(v, gguf_pre_tokenizer("gpt-2"), true);
}

Vocabulary hello_world_vocab() {
  return bpe_vocab(
      {"he", "ll", "hell", "hello", "\xC4\xA0w", "or", "\xC4\xA0wor", "ld", "\xC4\xA0world"},
      {"h e", "l l", "he ll", "hell o", "\xC4\xA0 w", "o r", "\xC4\xA0w or", "l d",
       "\xC4\xA0wor ld"});
}

}  // namespace

TEST_CASE("gpt2 byte map spells printable bytes as themselves and the rest from U+0100",
          "[tokenizer]") {
  REQUIRE(gpt2_byte_to_code_point('A') == 'A');
  REQUIRE(gpt2_byte_to_code_point(0xE9) == 0xE9);
  REQUIRE(gpt2_byte_to_code_point(0x00) == 0x100);
  REQUIRE(gpt2_byte_to_code_point('\n') == 0x10A);  // Ċ
  REQUIRE(gpt2_byte_to_code_point(' ') == 0x120);   // Ġ
  REQUIRE(gpt2_byte_to_code_point(0x7F) == 0x121);
  REQUIRE(gpt2_byte_to_code_point(0xAD) == 0x143);  // the 68th and last remapped byte
  REQUIRE(gpt2_bytes_to_text(" hi\n") == "\xC4\xA0hi\xC4\x8A");
  std::string all;
  for (int b = 0; b < 256; ++b) all.push_back(static_cast<char>(b));
  REQUIRE(gpt2_text_to_bytes(gpt2_bytes_to_text(all)) == all);
}

TEST_CASE("gpt2 pre-tokenizer splits words, numbers, contractions and whitespace as the regex",
          "[tokenizer]") {
  REQUIRE(gpt2_pre_tokenize("I'm 42 years") == Words{"I", "'m", " 42", " years"});
  REQUIRE(gpt2_pre_tokenize("Hello, world!") == Words{"Hello", ",", " world", "!"});
  REQUIRE(gpt2_pre_tokenize("we'll they've you're don't it's I'd") ==
          Words{"we", "'ll", " they", "'ve", " you", "'re", " don", "'t", " it", "'s", " I", "'d"});
  // Only lower-case contractions: "'S" is a symbol and a letter.
  REQUIRE(gpt2_pre_tokenize("IT'S") == Words{"IT", "'", "S"});
  // \s+(?!\S): a run of spaces leaves its last one to the next word; at the end it is kept.
  REQUIRE(gpt2_pre_tokenize("a   b  ") == Words{"a", "  ", " b", "  "});
  // Only " " joins the word after it; other whitespace runs stay whole before text.
  REQUIRE(gpt2_pre_tokenize("line\n\nnext") == Words{"line", "\n", "\n", "next"});
  REQUIRE(gpt2_pre_tokenize("x1y2") == Words{"x", "1", "y", "2"});
  REQUIRE(gpt2_pre_tokenize(" ...?! ok") == Words{" ...?!", " ok"});
  // Non-ASCII letters, numbers and symbols (Unicode's classes).
  REQUIRE(gpt2_pre_tokenize("caf\xC3\xA9 \xD0\xBC\xD0\xB8\xD1\x80 \xE4\xB8\xAD\xE6\x96\x87") ==
          Words{"caf\xC3\xA9", " \xD0\xBC\xD0\xB8\xD1\x80", " \xE4\xB8\xAD\xE6\x96\x87"});
  REQUIRE(gpt2_pre_tokenize("x\xC2\xB2 \xF0\x9F\x98\x80!") ==
          Words{"x", "\xC2\xB2", " \xF0\x9F\x98\x80!"});
  REQUIRE(gpt2_pre_tokenize("").empty());
}

TEST_CASE("gpt2 pre-tokenizer joins letters of any script and splits off unassigned code points",
          "[tokenizer]") {
  // Latin, Ethiopic, Tamil and Cherokee letters are one \p{L}+ word, as in llama.cpp.
  REQUIRE(gpt2_pre_tokenize("a\xE1\x88\x80\xE0\xAE\x85\xE1\x8E\xA0 b") ==
          Words{"a\xE1\x88\x80\xE0\xAE\x85\xE1\x8E\xA0", " b"});
  // Tamil digits are \p{N}: a number word after a letter.
  REQUIRE(gpt2_pre_tokenize("x\xE0\xAF\xA7\xE0\xAF\xA8") == Words{"x", "\xE0\xAF\xA7\xE0\xAF\xA8"});
  // U+1F16 is unassigned (inside Greek Extended): no letter, so it splits the Greek word.
  REQUIRE(gpt2_pre_tokenize("\xCE\xB1\xE1\xBC\x96\xCE\xB2") ==
          Words{"\xCE\xB1", "\xE1\xBC\x96", "\xCE\xB2"});
}

TEST_CASE("bpe tokenizer merges by rank within words", "[tokenizer]") {
  const Vocabulary v = hello_world_vocab();
  const std::unique_ptr<HfTokenizer> owned = gpt2_tokenizer(v);
  const HfTokenizer& tok = *owned;
  // "hello": h+e (0), l+l (1), he+ll (2), hell+o (3). " world" is "Ġworld": Ġ+w (4), o+r (5),
  // Ġw+or (6), l+d (7), Ġwor+ld (8).
  REQUIRE(tok.encode("hello world", false) ==
          std::vector<int32_t>{id_of(v, "hello"), id_of(v, "\xC4\xA0world")});
  REQUIRE(tok.encode("hello world", true).front() == tok.bos_id());
  // No merge joins Ġ and h: " hello" is the space's byte token, then "hello".
  REQUIRE(tok.encode(" hello", false) == std::vector<int32_t>{32, id_of(v, "hello")});
}

TEST_CASE("bpe tokenizer follows merge rank, not position, and breaks ties leftmost",
          "[tokenizer]") {
  auto encode_abc = [](const Words& merges) {
    const Vocabulary v = bpe_vocab({"ab", "bc"}, merges);
    return gpt2_tokenizer(v)->encode("abc", false);
  };
  const int32_t ab = 256, bc = 257;
  REQUIRE(encode_abc({"b c", "a b"}) == std::vector<int32_t>{'a', bc});
  REQUIRE(encode_abc({"a b", "b c"}) == std::vector<int32_t>{ab, 'c'});
  REQUIRE(encode_abc({}) == std::vector<int32_t>{'a', 'b', 'c'});
}

TEST_CASE("bpe tokenizer round-trips ASCII, UTF-8 and raw bytes", "[tokenizer]") {
  const std::unique_ptr<HfTokenizer> owned = gpt2_tokenizer(hello_world_vocab());
  const HfTokenizer& tok = *owned;
  for (const std::string& text : std::vector<std::string>{
           "hello world", "  Hello,   world!\n\n", "I'm 42 years old.", "caf\xC3\xA9 \xE4\xB8\xAD",
           "emoji \xF0\x9F\x98\x80 ok", std::string("nul\0byte\xFF", 9)}) {
    INFO(text);
    REQUIRE(tok.decode(tok.encode(text, true)) == text);
  }
  REQUIRE(tok.decode_token(tok.eos_id()).empty());
  REQUIRE(tok.decode_token(0x20) == " ");
  REQUIRE_THROWS_AS(tok.decode_token(tok.vocab_size()), std::out_of_range);
}

TEST_CASE("bpe tokenizer rejects a merge that is not two pieces", "[tokenizer]") {
  REQUIRE_THROWS_AS(gpt2_tokenizer(bpe_vocab({}, {"ab"})), std::invalid_argument);
  // Nor one whose pieces are not tokens.
  REQUIRE_THROWS_WITH(gpt2_tokenizer(bpe_vocab({}, {"a b"})), Catch::Contains("'ab'"));
}
