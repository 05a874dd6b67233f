// The parts Hugging Face's tokenizer.json pipeline is built from, each against results worked
// out by hand from Hugging Face's definitions: split behaviors, split patterns (with Unicode 15
// characters PCRE2's tables predate), normalizers, pre-tokenizer steps, added-token matching,
// BPE (byte fallback, unknown tokens, ignore_merges), decoders, GGUF pre-tokenizer names.
#include <catch2/catch.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "engine/tokenizer/added_tokens.h"
#include "engine/tokenizer/bpe_model.h"
#include "engine/tokenizer/gguf_pre_tokenizers.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/split_behavior.h"
#include "engine/tokenizer/split_regex.h"
#include "engine/tokenizer/text_normalizer.h"
#include "engine/tokenizer/token_decoder.h"
#include "engine/tokenizer/unicode_property_update.h"

using namespace infergate;

namespace {

using Words = std::vector<std::string>;

Words cut(const std::string& text, const std::string& pattern, SplitBehavior behavior,
          bool invert = false) {
  const std::vector<PreTokenizerStep> steps = {
      PreTokenizerStep::split_pattern(pattern, behavior, invert)};
  Words out;
  for (const PreTokenPiece& p : pre_tokenize(steps, text, true)) out.push_back(p.text);
  return out;
}

Words pieces(const std::vector<PreTokenizerStep>& steps, const std::string& text) {
  Words out;
  for (const PreTokenPiece& p : pre_tokenize(steps, text, true)) out.push_back(p.text);
  return out;
}

}  // namespace

TEST_CASE("split behaviors cut as Hugging Face's five do", "[tokenizer]") {
  const std::string text = "a--b-c";
  REQUIRE(cut(text, "-", SplitBehavior::kRemoved) == Words{"a", "b", "c"});
  REQUIRE(cut(text, "-", SplitBehavior::kIsolated) == Words{"a", "-", "-", "b", "-", "c"});
  REQUIRE(cut(text, "-", SplitBehavior::kMergedWithPrevious) == Words{"a-", "-", "b-", "c"});
  REQUIRE(cut(text, "-", SplitBehavior::kMergedWithNext) == Words{"a", "-", "-b", "-c"});
  REQUIRE(cut(text, "-", SplitBehavior::kContiguous) == Words{"a", "--", "b", "-", "c"});
  REQUIRE(cut(text, "-", SplitBehavior::kRemoved, true) == Words{"-", "-", "-"});
  REQUIRE(cut("", "-", SplitBehavior::kIsolated).empty());
  REQUIRE_THROWS_WITH(parse_split_behavior("Merged"), Catch::Contains("MergedWithPrevious"));
}

TEST_CASE("split patterns use Unicode classes, lookahead and case-insensitive groups",
          "[tokenizer]") {
  const std::string llama3 = gguf_pre_tokenizer("llama-bpe").patterns[0];
  REQUIRE(cut("I'M  here\n\n  123456", llama3, SplitBehavior::kIsolated) ==
          Words{"I", "'M", " ", " here", "\n\n", " ", " ", "123", "456"});
  // An empty match is skipped and the search moves on one character (here a 2-byte one).
  REQUIRE(SplitRegex("x*").find_all("\xC3\xA9x").size() == 1);
  // Invalid UTF-8 matches no class but is no error.
  REQUIRE(SplitRegex("\\p{L}+")
              .find_all("ab\xFF"
                        "cd")
              .size() == 2);
  REQUIRE_THROWS_WITH(SplitRegex("(unclosed"), Catch::Contains("(unclosed"));
}

TEST_CASE("split patterns know the characters Unicode 15 added, as ICU does", "[tokenizer]") {
  // U+1F6DC (wireless, an So symbol since Unicode 15) joins the symbols before it.
  const SplitRegex symbols(" ?[\\p{P}\\p{S}]+");
  const std::vector<TextSpan> m = symbols.find_all("a \xF0\x9F\x9B\x9C!");
  REQUIRE(m.size() == 1);
  REQUIRE(m[0].begin == 1);
  REQUIRE(m[0].end == 7);
  // Outside a class a property becomes a class; escapes, POSIX classes and "[]" survive.
  const std::string updated = with_icu_unicode_properties("\\p{S}|[\\]\\p{L}[:alpha:]]|\\\\p");
  REQUIRE(updated.rfind("[\\p{S}\\x{", 0) == 0);
  REQUIRE(updated.find("[:alpha:]]|\\\\p") != std::string::npos);
  REQUIRE(SplitRegex(updated).find_all("\xF0\x9F\x9B\x9C").size() == 1);
}

TEST_CASE("normalizers rewrite text as tokenizer.json's do", "[tokenizer]") {
  // NFC composes e + U+0301; NFKC also folds the "fi" ligature.
  REQUIRE(TextNormalizer::unicode_form("NFC").apply("e\xCC\x81") == "\xC3\xA9");
  REQUIRE(TextNormalizer::unicode_form("NFKC").apply("\xEF\xAC\x81") == "fi");
  REQUIRE(TextNormalizer::unicode_form("NFD").apply("\xC3\xA9") == "e\xCC\x81");
  REQUIRE(TextNormalizer::unicode_form("NFC").apply("bad\xFF") == "bad\xFF");  // left alone
  REQUIRE_THROWS_WITH(TextNormalizer::unicode_form("NFX"), Catch::Contains("NFKC"));
  REQUIRE(TextNormalizer::lowercase().apply("\xC3\x89T\xC3\x89 ABC") == "\xC3\xA9t\xC3\xA9 abc");
  REQUIRE(TextNormalizer::prepend("\xE2\x96\x81").apply("hi") == "\xE2\x96\x81hi");
  REQUIRE(TextNormalizer::prepend("\xE2\x96\x81").apply("").empty());
  REQUIRE(TextNormalizer::replace_string(" ", "\xE2\x96\x81").apply("a b  c") ==
          "a\xE2\x96\x81"
          "b\xE2\x96\x81\xE2\x96\x81"
          "c");
  REQUIRE(TextNormalizer::replace_pattern("\\s+", " ").apply("a \t\n b") == "a b");
  REQUIRE(TextNormalizer::strip(true, false).apply(" \xE3\x80\x80x ") == "x ");
  REQUIRE(normalize_text({TextNormalizer::prepend("_"), TextNormalizer::lowercase()}, "AB") ==
          "_ab");
}

TEST_CASE("pre-tokenizer steps: ByteLevel, Metaspace, digits, punctuation, whitespace",
          "[tokenizer]") {
  REQUIRE(pieces({PreTokenizerStep::byte_level(false, true)}, "Hi all") == Words{"Hi",
                                                                                 "\xC4\xA0"
                                                                                 "all"});
  REQUIRE(pieces({PreTokenizerStep::byte_level(true, false)}, "Hi") == Words{"\xC4\xA0Hi"});
  const std::string bar = "\xE2\x96\x81";
  REQUIRE(pieces({PreTokenizerStep::metaspace(bar, "always", true)}, "a b") ==
          Words{bar + "a", bar + "b"});
  REQUIRE(pieces({PreTokenizerStep::metaspace(bar, "never", false)}, "a b") ==
          Words{"a" + bar + "b"});
  REQUIRE_THROWS_WITH(PreTokenizerStep::metaspace(bar, "sometimes", true),
                      Catch::Contains("always, first, never"));
  // "first" prepends only to the piece that begins the input.
  std::vector<PreTokenPiece> later = {{"x", false}};
  PreTokenizerStep::metaspace(bar, "first", true).apply(later);
  REQUIRE(later[0].text == "x");
  REQUIRE(pieces({digits_step(true)}, "ab123") == Words{"ab", "1", "2", "3"});
  REQUIRE(pieces({digits_step(false)}, "ab123c") == Words{"ab", "123", "c"});
  REQUIRE(pieces({punctuation_step(SplitBehavior::kIsolated)}, "a,b!?") ==
          Words{"a", ",", "b", "!", "?"});
  REQUIRE(pieces({whitespace_step()}, "hi, you  there") == Words{"hi", ",", "you", "there"});
  REQUIRE(pieces({whitespace_split_step()}, " hi,\tyou ") == Words{"hi,", "you"});
}

TEST_CASE("added tokens match leftmost-longest, with lstrip, rstrip and single_word",
          "[tokenizer]") {
  std::vector<AddedToken> tokens = {{"<a>", 10}, {"<a><b>", 11}, {"<c>", 12}, {"word", 13}};
  tokens[2].lstrip = tokens[2].rstrip = true;
  tokens[3].single_word = true;
  tokens.push_back({"<n>", 14, false, false, false, false, true});  // normalized
  const AddedTokenMatcher raw(tokens, false);
  auto ids = [&](const std::string& text) {
    std::vector<std::string> out;
    for (const AddedTokenSegment& s : raw.split(text)) {
      out.push_back(s.id >= 0 ? std::to_string(s.id) : "'" + s.text + "'");
    }
    return out;
  };
  REQUIRE(ids("x<a><b>y<a>") == Words{"'x'", "11", "'y'", "10"});
  REQUIRE(ids("x  <c>  y") == Words{"'x'", "12", "'y'"});
  REQUIRE(ids("a word, swords") == Words{"'a '", "13", "', swords'"});
  REQUIRE(ids("<n>") == Words{"'<n>'"});  // matched only after normalization
  REQUIRE(AddedTokenMatcher(tokens, true).split("a<n>b").size() == 3);
  REQUIRE(ids("").empty());
}

TEST_CASE("bpe model: rank order, byte fallback, unknown tokens, ignore_merges", "[tokenizer]") {
  PieceIds vocab = {{"a", 0}, {"b", 1}, {"c", 2}, {"ab", 3}, {"bc", 4}, {"abc", 5}, {"<unk>", 6}};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof name, "<0x%02X>", b);
    vocab[name] = 100 + b;
  }
  auto encode = [&](const std::string& word, BpeOptions options,
                    std::vector<std::pair<std::string, std::string>> merges) {
    std::vector<int32_t> out;
    BpeModel(vocab, merges, options).encode_word(word, out);
    return out;
  };
  const std::vector<std::pair<std::string, std::string>> bc_first = {{"b", "c"}, {"a", "b"}};
  REQUIRE(encode("abc", {}, bc_first) == std::vector<int32_t>{0, 4});
  REQUIRE(encode("abc", {}, {{"a", "b"}, {"ab", "c"}}) == std::vector<int32_t>{5});
  BpeOptions fallback;
  fallback.byte_fallback = true;
  REQUIRE(encode("a\xC3\xA9", fallback, {}) == std::vector<int32_t>{0, 100 + 0xC3, 100 + 0xA9});
  BpeOptions unk;
  unk.unk_id = 6;
  REQUIRE(encode("xya", unk, {}) == std::vector<int32_t>{6, 6, 0});
  unk.fuse_unk = true;
  REQUIRE(encode("xya", unk, {}) == std::vector<int32_t>{6, 0});
  REQUIRE(encode("xya", {}, {}) == std::vector<int32_t>{0});  // no unknown token: dropped
  BpeOptions whole;
  whole.ignore_merges = true;
  REQUIRE(encode("abc", whole, bc_first) == std::vector<int32_t>{5});
  REQUIRE_THROWS_WITH(BpeModel(vocab, {{"a", "x"}}, {}), Catch::Contains("'x'"));
}

TEST_CASE("decoders: byte level, byte fallback, replace, strip after fuse, metaspace",
          "[tokenizer]") {
  TokenDecoder llama;  // Llama 2's: Replace ▁ by " ", ByteFallback, Fuse, Strip one leading " "
  llama.add_replace("\xE2\x96\x81", " ");
  llama.add_byte_fallback();
  llama.add_fuse();
  llama.add_strip(" ", 1, 0);
  REQUIRE(llama.text({"\xE2\x96\x81Hi", "<0xC3>", "<0xA9>", "\xE2\x96\x81x"}) == "Hi\xC3\xA9 x");
  REQUIRE(llama.token_text("\xE2\x96\x81Hi") == " Hi");
  TokenDecoder bytes;
  bytes.add_byte_level();
  REQUIRE(bytes.text({"Hello", "\xC4\xA0world", "\xC4\x8A"}) == "Hello world\n");
  // A token with a character that stands for no byte is kept as it is (DeepSeek's specials).
  REQUIRE(bytes.token_text("<\xEF\xBD\x9C"
                           "end\xC4\xA0\xEF\xBD\x9C>") ==
          "<\xEF\xBD\x9C"
          "end\xC4\xA0\xEF\xBD\x9C>");
  TokenDecoder meta;
  meta.add_metaspace("\xE2\x96\x81", true);
  REQUIRE(meta.text({"\xE2\x96\x81Hi", "\xE2\x96\x81there"}) == "Hi there");
}

TEST_CASE("gguf pre-tokenizer names are found back from patterns, for writing GGUF",
          "[tokenizer]") {
  // Llama 3's pattern names two GGUF pre-tokenizers, told apart by ignore_merges.
  const std::vector<std::string> llama3 = gguf_pre_tokenizer("llama-bpe").patterns;
  REQUIRE(gguf_pre_tokenizer_name(llama3, true) == "llama3");
  REQUIRE(gguf_pre_tokenizer_name(llama3, false) == "dbrx");
  REQUIRE(gguf_pre_tokenizer_name({kGpt2SplitPattern}, false) == "gpt-2");
  REQUIRE(gguf_pre_tokenizer_name(gguf_pre_tokenizer("deepseek-v3").patterns, false) ==
          "deepseek-v3");
  // llama.cpp's unnamed fallback is never written; nor is a pattern no name stands for.
  REQUIRE_FALSE(gguf_pre_tokenizer_name(gguf_pre_tokenizer("default").patterns, false));
  REQUIRE_FALSE(gguf_pre_tokenizer_name({"\\p{L}+"}, false));
}

TEST_CASE("gguf pre-tokenizer names map to patterns, and an unknown name is refused by name",
          "[tokenizer]") {
  REQUIRE(gguf_pre_tokenizer("llama-bpe").ignore_merges);
  REQUIRE(gguf_pre_tokenizer("llama-bpe").default_add_bos);
  REQUIRE(gguf_pre_tokenizer("qwen2").patterns.size() == 1);
  REQUIRE(gguf_pre_tokenizer("deepseek-v3").patterns.size() == 3);
  REQUIRE(gguf_pre_tokenizer("").patterns == gguf_pre_tokenizer("default").patterns);
  REQUIRE_THROWS_WITH(gguf_pre_tokenizer("my-own"),
                      Catch::Contains("'my-own'") && Catch::Contains("qwen2"));
  for (const char* name :
       {"default", "gpt-2", "llama-bpe", "dbrx", "qwen2", "deepseek-v3", "deepseek-coder",
        "starcoder", "falcon", "tekken", "gpt-4o", "bloom", "viking"}) {
    for (const std::string& p : gguf_pre_tokenizer(name).patterns) {
      INFO(name << ": " << p);
      REQUIRE_NOTHROW(SplitRegex(p));
    }
  }
}
