#include <catch2/catch.hpp>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

using namespace infergate;

TEST_CASE("byte tokenizer round-trips ASCII, multi-byte UTF-8 and all 256 bytes", "[tokenizer]") {
  const ByteTokenizer tok(synthetic_vocabulary(512));

  const std::string ascii = "Hello, world!\n\tThe quick brown fox.";
  const std::vector<int32_t> ids = tok.encode(ascii, false);
  REQUIRE(ids.size() == ascii.size());
  REQUIRE(ids[0] == 3 + 'H');  // byte b is token 3 + b in the byte-fallback layout
  REQUIRE(tok.decode(ids) == ascii);

  // 2-, 3- and 4-byte sequences: é, 中, ▁ (SentencePiece's own space mark) and an emoji.
  const std::string utf8 = "caf\xC3\xA9 \xE4\xB8\xAD\xE6\x96\x87 \xE2\x96\x81 \xF0\x9F\x98\x80";
  const std::vector<int32_t> utf8_ids = tok.encode(utf8, false);
  REQUIRE(utf8_ids.size() == utf8.size());
  REQUIRE(tok.decode(utf8_ids) == utf8);
  // Pieces of a split character decode to their raw bytes, one each.
  REQUIRE(tok.decode_token(tok.encode("\xC3\xA9", false)[0]) == "\xC3");

  std::string all_bytes;
  for (int b = 0; b < 256; ++b) all_bytes.push_back(static_cast<char>(b));
  const std::vector<int32_t> all_ids = tok.encode(all_bytes, false);
  REQUIRE(all_ids.size() == 256u);
  for (int b = 0; b < 256; ++b) REQUIRE(all_ids[static_cast<size_t>(b)] == 3 + b);
  REQUIRE(tok.decode(all_ids) == all_bytes);

  REQUIRE(tok.encode("", false).empty());
  REQUIRE(tok.decode({}).empty());
}

TEST_CASE("byte tokenizer BOS handling", "[tokenizer]") {
  const Vocabulary vocab = synthetic_vocabulary(300);
  const ByteTokenizer tok(vocab);
  REQUIRE(tok.bos_id() == vocab.bos_id);

  const std::vector<int32_t> with = tok.encode("ab", true);
  REQUIRE(with == std::vector<int32_t>{1, 3 + 'a', 3 + 'b'});
  REQUIRE(tok.encode("ab", false) == std::vector<int32_t>{3 + 'a', 3 + 'b'});
  REQUIRE(tok.encode("", true) == std::vector<int32_t>{1});
  REQUIRE(tok.decode(with) == "ab");  // BOS is a marker, not text

  Vocabulary no_bos = vocab;
  no_bos.bos_id = -1;
  const ByteTokenizer tok_no_bos(no_bos);
  REQUIRE(tok_no_bos.encode("ab", false).size() == 2u);
  REQUIRE_THROWS_WITH(tok_no_bos.encode("ab", true), Catch::Matchers::Contains("bos_id"));
}

TEST_CASE("byte tokenizer decodes control tokens to nothing and pieces with spaces",
          "[tokenizer]") {
  const ByteTokenizer tok(synthetic_vocabulary(400));
  REQUIRE(tok.vocab_size() == 400);
  REQUIRE(tok.decode_token(0).empty());  // <unk>
  REQUIRE(tok.decode_token(1).empty());  // <s>
  REQUIRE(tok.decode_token(2).empty());  // </s>
  REQUIRE(tok.decode_token(3 + 'A') == "A");
  REQUIRE(tok.decode_token(3).size() == 1u);  // <0x00> is one NUL byte, not empty
  REQUIRE(tok.decode_token(3)[0] == '\0');
  REQUIRE(tok.decode_token(259) == " ");      // "▁", the SentencePiece space
  REQUIRE(tok.decode_token(260) == " t260");  // "▁t260"
  REQUIRE(tok.decode(std::vector<int32_t>{1, 3 + 'h', 3 + 'i', 300, 2}) == "hi t300");
  REQUIRE_THROWS_AS(tok.decode_token(400), std::out_of_range);
  REQUIRE_THROWS_AS(tok.decode_token(-1), std::out_of_range);
  REQUIRE_THROWS_AS(tok.decode(std::vector<int32_t>{5, 4000}), std::out_of_range);
}

TEST_CASE("byte tokenizer finds byte tokens by piece in any layout", "[tokenizer]") {
  // A llama-like table: byte tokens not at 3..258 and lower-case hex, control tokens by type.
  Vocabulary v;
  v.tokens = {"<unk>", "<s>", "</s>", "<pad>", "\xE2\x96\x81the"};
  v.types = {TokenType::kUnknown, TokenType::kControl, TokenType::kControl, TokenType::kControl,
             TokenType::kNormal};
  for (int b = 255; b >= 0; --b) {
    static const char kHex[] = "0123456789abcdef";
    v.tokens.push_back(std::string("<0x") + kHex[b / 16] + kHex[b % 16] + ">");
    v.types.push_back(TokenType::kByte);
  }
  const ByteTokenizer tok(v);
  const std::vector<int32_t> ids = tok.encode("\x01\xFF", true);
  REQUIRE(ids == std::vector<int32_t>{1, 5 + 254, 5 + 0});
  REQUIRE(tok.decode(ids) == "\x01\xFF");
  REQUIRE(tok.decode_token(3).empty());  // <pad>
  REQUIRE(tok.decode_token(4) == " the");
}

TEST_CASE("byte tokenizer rejects a vocabulary without byte tokens", "[tokenizer]") {
  Vocabulary none;
  none.tokens = {"<unk>", "<s>", "</s>", "a", "b"};
  REQUIRE_THROWS_AS(ByteTokenizer(none), std::invalid_argument);
  REQUIRE_THROWS_WITH(ByteTokenizer(none), Catch::Matchers::Contains("<0x00>"));

  // One missing byte is enough to refuse, and the message names it.
  Vocabulary missing_one = synthetic_vocabulary(300);
  // Move-assigned strings: assigning a literal trips a GCC 12 -Wrestrict false positive.
  missing_one.tokens[3 + 0x41] = std::string("A");
  REQUIRE_THROWS_WITH(ByteTokenizer(missing_one), Catch::Matchers::Contains("<0x41>"));

  // Look-alikes are not byte tokens.
  Vocabulary look_alike = synthetic_vocabulary(300);
  look_alike.tokens[3 + 0x7F] = std::string("<0x7G>");
  REQUIRE_THROWS_WITH(ByteTokenizer(look_alike), Catch::Matchers::Contains("<0x7F>"));
}
