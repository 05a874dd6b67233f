// SpmTokenizer against encodings worked out by hand on tiny vocabularies, following llama.cpp's
// llm_tokenizer_spm: highest-scoring adjacent pair first, leftmost on ties, byte fallback.
#include <catch2/catch.hpp>
#include <cstdint>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/tokenizer/spm_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

using namespace infergate;

namespace {

const std::string kSpace = "\xE2\x96\x81";  // ▁

// <unk>, <s>, </s>, the 256 byte tokens (byte b is id 3 + b), then `pieces` with their scores.
Vocabulary spm_vocab(const std::vector<std::pair<std::string, float>>& pieces) {
  Vocabulary v;
  v.model = "llama";
  v.tokens = {"<unk>", "<s>", "</s>"};
  v.types = {TokenType::kUnknown, TokenType::kControl, TokenType::kControl};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    v.tokens.push_back(name);
    v.types.push_back(TokenType::kByte);
  }
  v.scores.assign(v.tokens.size(), 0.0f);
  for (const auto& [piece, score] : pieces) {
    v.tokens.push_back(piece);
    v.types.push_back(TokenType::kNormal);
    v.scores.push_back(score);
  }
  return v;
}

constexpr int32_t kFirstPiece = 259;

// The id of `piece` in a spm_vocab.
int32_t id_of(const Vocabulary& v, const std::string& piece) {
  for (size_t i = 0; i < v.tokens.size(); ++i) {
    if (v.tokens[i] == piece) return static_cast<int32_t>(i);
  }
  throw std::invalid_argument("no piece " + piece);
}

std::vector<std::pair<std::string, float>> hello_pieces() {
  return {{kSpace, -10},
          {"h", -10},
          {"e", -10},
          {"l", -10},
          {"o", -10},
          {"w", -10},
          {"r", -10},
          {"d", -10},
          {kSpace + "h", -5},
          {"he", -3},
          {"ll", -1},
          {"lo", -2},
          {"llo", -1.5},
          {"hello", -0.5},
          {kSpace + "w", -4},
          {"or", -3},
          {"ld", -3},
          {"orld", -2},
          {kSpace + "world", -1}};
}

}  // namespace

TEST_CASE("spm tokenizer merges the highest-scoring pair first, down to one piece", "[tokenizer]") {
  // ▁hello: ll (-1), then llo (-1.5), he (-3) and hello (-0.5); lo (-2) is stale once ll took its
  // l, and ▁h (-5) once h joined "hello", so the space stays on its own.
  const Vocabulary v = spm_vocab(hello_pieces());
  const SpmTokenizer tok(v);
  REQUIRE(tok.encode("hello", false) == std::vector<int32_t>{id_of(v, kSpace), id_of(v, "hello")});

  // With "▁hello" in the vocabulary the space joins last.
  std::vector<std::pair<std::string, float>> pieces = hello_pieces();
  pieces.emplace_back(kSpace + "hello", -0.1f);
  const Vocabulary v2 = spm_vocab(pieces);
  const SpmTokenizer tok2(v2);
  REQUIRE(tok2.encode("hello", false) == std::vector<int32_t>{id_of(v2, kSpace + "hello")});
  // Spaces are "▁" inside the text too. ▁w (-4) waits until o+r and l+d have made "orld"
  // (-2), and then makes "▁world" with it.
  REQUIRE(tok2.encode("hello world", true) ==
          std::vector<int32_t>{1, id_of(v2, kSpace + "hello"), id_of(v2, kSpace + "world")});
}

TEST_CASE("spm tokenizer breaks ties leftmost and follows scores, not position", "[tokenizer]") {
  auto encode_abc = [](float ab, float bc) {
    const Vocabulary v = spm_vocab({{"a", -9}, {"b", -9}, {"c", -9}, {"ab", ab}, {"bc", bc}});
    return SpmTokenizer(v, /*add_space_prefix=*/false).encode("abc", false);
  };
  const int32_t a = kFirstPiece, c = kFirstPiece + 2, ab = kFirstPiece + 3, bc = kFirstPiece + 4;
  REQUIRE(encode_abc(-2, -1) == std::vector<int32_t>{a, bc});
  REQUIRE(encode_abc(-1, -2) == std::vector<int32_t>{ab, c});
  REQUIRE(encode_abc(-1, -1) == std::vector<int32_t>{ab, c});
}

TEST_CASE("spm tokenizer falls back to byte tokens for characters it cannot spell", "[tokenizer]") {
  const Vocabulary v = spm_vocab(hello_pieces());
  const SpmTokenizer tok(v);
  // "é" is U+00E9, bytes C3 A9: no piece, so <0xC3><0xA9> after the prefixed space.
  const std::vector<int32_t> ids = tok.encode("\xC3\xA9", false);
  REQUIRE(ids == std::vector<int32_t>{id_of(v, kSpace), 3 + 0xC3, 3 + 0xA9});
  REQUIRE(tok.decode(ids) == "\xC3\xA9");
  REQUIRE(tok.decode_token(3 + 0xC3) == "\xC3");

  // Without byte tokens, the unknown token stands in for each byte.
  Vocabulary no_bytes;
  no_bytes.tokens = {"<unk>", "<s>", "</s>", kSpace};
  no_bytes.types = {TokenType::kUnknown, TokenType::kControl, TokenType::kControl,
                    TokenType::kNormal};
  REQUIRE(SpmTokenizer(no_bytes).encode("\xC3\xA9", false) == std::vector<int32_t>{3, 0, 0});
}

TEST_CASE("spm tokenizer adds a space prefix and BOS only when asked", "[tokenizer]") {
  const Vocabulary v = spm_vocab(hello_pieces());
  REQUIRE(SpmTokenizer(v).encode("", true) == std::vector<int32_t>{1});
  REQUIRE(SpmTokenizer(v).encode("", false).empty());
  REQUIRE(SpmTokenizer(v, false).encode("hello", false) == std::vector<int32_t>{id_of(v, "hello")});
  // Decoding strips the prefixed space once, after any BOS; a leading space of the text stays.
  const SpmTokenizer tok(v);
  REQUIRE(tok.decode(tok.encode("hello", true)) == "hello");
  REQUIRE(tok.decode(tok.encode(" hello", true)) == " hello");
  REQUIRE(SpmTokenizer(v, false).decode(tok.encode("hello", false)) == " hello");
}

TEST_CASE("spm tokenizer round-trips ASCII and UTF-8 text", "[tokenizer]") {
  for (const Vocabulary& v : {spm_vocab(hello_pieces()), synthetic_vocabulary(600)}) {
    const SpmTokenizer tok(v);
    for (const std::string text :
         {"hello world", "  two  spaces ", "tab\tand\nnewline",
          "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87", "emoji \xF0\x9F\x98\x80!"}) {
      INFO(text);
      REQUIRE(tok.decode(tok.encode(text, true)) == text);
    }
    // As in llama.cpp, a literal "▁" in the text cannot be told from a space.
    REQUIRE(tok.decode(tok.encode("a\xE2\x96\x81"
                                  "b",
                                  false)) == "a b");
  }
}

TEST_CASE("spm tokenizer decodes markers as nothing and rejects ids outside the vocabulary",
          "[tokenizer]") {
  const Vocabulary v = spm_vocab(hello_pieces());
  const SpmTokenizer tok(v);
  REQUIRE(tok.vocab_size() == static_cast<int32_t>(v.size()));
  REQUIRE(tok.bos_id() == 1);
  REQUIRE(tok.eos_id() == 2);
  REQUIRE(tok.decode_token(0).empty());
  REQUIRE(tok.decode_token(2).empty());
  REQUIRE(tok.decode_token(id_of(v, kSpace + "h")) == " h");
  REQUIRE_THROWS_AS(tok.decode_token(-1), std::out_of_range);
  REQUIRE_THROWS_AS(tok.decode_token(tok.vocab_size()), std::out_of_range);
}
