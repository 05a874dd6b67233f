// GBNF grammars parsed to bytes and run by the matcher: what they take and refuse, UTF-8
// classes, repetition bounds, the refusals of bad grammars, and token masks over a vocabulary
// trie equal to trying every token.
#include <catch2/catch.hpp>

#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/grammar/json_schema_grammar.h"
#include "engine/grammar/token_grammar.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"

using namespace infergate;

namespace {

bool matches(std::string_view gbnf, std::string_view text) {
  GrammarMatcher m(std::make_shared<Grammar>(parse_gbnf(gbnf)));
  return m.accept(text) && m.complete();
}

}  // namespace

TEST_CASE("gbnf: literals, classes, groups and repetition", "[grammar]") {
  const char* g = R"(
    root ::= "{" ws pair ("," ws pair)* "}"   # a tiny object
    pair ::= [a-z]+ ":" ws ( "true" | "false" | [0-9]{1,3} )
    ws ::= [ \t\n]*
  )";
  CHECK(matches(g, "{a:true}"));
  CHECK(matches(g, "{ ab: 12,\n c:false}"));
  CHECK_FALSE(matches(g, "{a:1234}"));  // {1,3}
  CHECK_FALSE(matches(g, "{A:true}"));
  CHECK_FALSE(matches(g, "{a:true"));  // incomplete
  CHECK_FALSE(matches(g, "{a:true}}"));
}

TEST_CASE("gbnf: non-ASCII classes and negation match UTF-8 bytes", "[grammar]") {
  CHECK(matches(R"(root ::= [α-ω]+)", "λμ"));
  CHECK_FALSE(matches(R"(root ::= [α-ω]+)", "λA"));
  CHECK(matches(R"(root ::= "\"" [^"\\]* "\"")", "\"héllo 😀\""));
  CHECK_FALSE(matches(R"(root ::= "\"" [^"\\]* "\"")", "\"a\"b\""));
  CHECK(matches(R"(root ::= . . .)", "a€😀"));
  CHECK(matches(R"(root ::= "\u00e9\x41")", "éA"));
  // A token may end inside a character: bytes are accepted one at a time.
  GrammarMatcher m(std::make_shared<Grammar>(parse_gbnf(R"(root ::= "€")")));
  CHECK(m.accept(std::string_view("\xe2\x82")));
  CHECK_FALSE(m.complete());
  CHECK(m.accept(std::string_view("\xac")));
  CHECK(m.complete());
}

TEST_CASE("gbnf: bad grammars are refused naming the problem", "[grammar]") {
  CHECK_THROWS_WITH(parse_gbnf("root ::= foo"), Catch::Contains("'foo' is used but never defined"));
  CHECK_THROWS_WITH(parse_gbnf("x ::= \"a\""), Catch::Contains("no rule 'root'"));
  CHECK_THROWS_WITH(parse_gbnf("root ::= root \"a\" | \"b\""), Catch::Contains("left-recursive"));
  CHECK_THROWS_WITH(parse_gbnf("root ::= \"a"), Catch::Contains("unterminated"));
  CHECK_THROWS_WITH(parse_gbnf("root ::= [b-a]"), Catch::Contains("line 1, column"));
  CHECK_THROWS_WITH(parse_gbnf("root ::= \"a\"{2000}"), Catch::Contains("above 1000"));
  std::string huge = "root ::=";
  for (int i = 0; i < 25; ++i) huge += " \"abcdefghij\"{1000}";  // 10 elements, 1000 times each
  CHECK_THROWS_WITH(parse_gbnf(huge), Catch::Contains("expands past 200000"));
  CHECK_THROWS_WITH(parse_gbnf(std::string(70000, ' ')), Catch::Contains("at most 65536"));
  CHECK_THROWS_WITH(parse_gbnf("root ::= \"a\"\nroot ::= \"b\""), Catch::Contains("twice"));
}

TEST_CASE("gbnf: an ambiguous grammar is stopped at the stack limit", "[grammar]") {
  // Each "a" owes a "b" or a "c": the distinct parses double with each byte.
  auto g = std::make_shared<Grammar>(parse_gbnf(R"(root ::= s
    s ::= "a" s "b" | "a" s "c" | "")"));
  GrammarMatcher m(g);
  CHECK_THROWS_AS(
      [&] {
        for (int i = 0; i < 64; ++i) m.accept(uint8_t('a'));
      }(),
      GrammarError);
}

TEST_CASE("gbnf: right recursion keeps one parse per split, however long the run", "[grammar]") {
  // Without tail calls every split of the digits between the two loops was a parse of its own.
  auto g = std::make_shared<Grammar>(parse_gbnf(R"(root ::= [a-z0-9]+ [0-9]*)"));
  GrammarMatcher m(g);
  CHECK(m.accept(std::string(5000, '7')));
  CHECK(m.complete());
}

TEST_CASE("gbnf: the trie's token mask equals trying every token", "[grammar]") {
  std::vector<std::string> vocab = {"<s>", "{",        "}",    "\"", "a",      "ab",
                                    "\":", "true",     "tr",   "ue", " ",      "1",
                                    "12",  "\xe2\x82", "\xac", "€",  "\"a\":", ""};
  std::vector<bool> usable(vocab.size(), true);
  usable[0] = false;  // a special token
  auto trie = std::make_shared<TokenTrie>(vocab, usable);
  auto grammar = std::make_shared<Grammar>(parse_gbnf(R"(
    root ::= "{" "\"" [a-z€]+ "\":" ( "true" | [0-9]+ ) "}")"));
  TokenGrammar tg(grammar, trie);
  GrammarMatcher state = tg.start();
  const std::string text = "{\"a€b\":12}";
  for (size_t i = 0; i <= text.size(); ++i) {
    const std::vector<bool> mask = *tg.allowed(state);
    for (size_t id = 0; id < vocab.size(); ++id) {
      GrammarMatcher copy = state;
      const bool expected = usable[id] && !vocab[id].empty() && copy.accept(vocab[id]);
      INFO("after " << i << " bytes, token " << id);
      CHECK(mask[id] == expected);
    }
    if (i < text.size()) REQUIRE(state.accept(uint8_t(text[i])));
  }
  CHECK(state.complete());
  CHECK(tg.stats().masks == int64_t(text.size() + 1));
}

TEST_CASE("gbnf: over a real vocabulary the mask equals trying every token along a schema's answer",
          "[grammar]") {
  // The trained model's 4096 byte-level BPE tokens: many spell a piece of a JSON string, so the
  // walk reaches the same state from many trie nodes (each state is stepped once per byte).
  const ModelSource source = parse_model_argument("trained", 0);
  const ModelTokenizer tokenizer = load_model_tokenizer(source, load_model(source).vocab);
  std::vector<std::string> vocab;
  for (int32_t id = 0; id < tokenizer.tokenizer->vocab_size(); ++id) {
    vocab.push_back(tokenizer.tokenizer->decode_token(id));
  }
  auto trie = std::make_shared<TokenTrie>(vocab, std::vector<bool>{});
  const nlohmann::ordered_json schema = nlohmann::ordered_json::parse(R"({"type": "object",
      "properties": {"name": {"type": "string", "maxLength": 5}, "n": {"type": "integer"},
                     "tags": {"type": "array", "items": {"enum": ["a", "bc"]}, "maxItems": 2}},
      "required": ["name", "n", "tags"]})");
  TokenGrammar tg(std::make_shared<Grammar>(parse_gbnf(json_schema_to_gbnf(schema))), trie);
  GrammarMatcher state = tg.start();
  const std::string text = R"({"name": "x\"y", "n": -42, "tags": ["bc", "a"]})";
  for (size_t i = 0; i <= text.size(); ++i) {
    const std::vector<bool> mask = *tg.allowed(state);
    size_t allowed = 0, wrong = 0;
    for (size_t id = 0; id < vocab.size(); ++id) {
      GrammarMatcher copy = state;
      const bool expected = !vocab[id].empty() && copy.accept(vocab[id]);
      allowed += expected;
      if (mask[id] != expected && wrong++ == 0) UNSCOPED_INFO("first wrong token " << id);
    }
    INFO("after " << i << " bytes");
    CHECK(wrong == 0);
    CHECK((allowed > 0) == (i < text.size()));  // a prefix goes on; the whole value ends
    if (i < text.size()) REQUIRE(state.accept(uint8_t(text[i])));
  }
  CHECK(state.complete());
}
