// Regular expressions as GBNF, run by the matcher: a table of (pattern, text, expected) over
// every supported construct, agreement with std::regex on small patterns, the fast handling of
// ambiguous patterns, the GBNF written, and the refusals with their offsets.
#include <catch2/catch.hpp>

#include <chrono>
#include <regex>

#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/grammar/regex_grammar.h"

using namespace infergate;

namespace {

std::shared_ptr<Grammar> compile(std::string_view pattern) {
  return std::make_shared<Grammar>(parse_gbnf(regex_to_gbnf(pattern)));
}

bool matches(const std::shared_ptr<Grammar>& grammar, std::string_view text) {
  GrammarMatcher m(grammar);
  return m.accept(text) && m.complete();
}

struct Case {
  const char* pattern;
  std::string text;
  bool expected;
};

void check_table(const std::vector<Case>& cases) {
  for (const Case& c : cases) {
    INFO("pattern " << c.pattern << " text \"" << c.text << "\"");
    CHECK(matches(compile(c.pattern), c.text) == c.expected);
  }
}

}  // namespace

TEST_CASE("regex: literals, classes and shorthands", "[grammar]") {
  check_table({
      {R"(\d{3}-\d{4})", "555-1234", true},
      {R"(\d{3}-\d{4})", "555-123", false},
      {R"(\d{3}-\d{4})", "5551234", false},
      {R"(\d{3}-\d{4})", "555-12345", false},
      {"[A-Z][a-z]*", "Hello", true},
      {"[A-Z][a-z]*", "H", true},
      {"[A-Z][a-z]*", "hello", false},
      {"[A-Z][a-z]*", "HeLlo", false},
      {R"([^"\\]*)", "", true},
      {R"([^"\\]*)", "héllo 😀 \n", true},
      {R"([^"\\]*)", "a\"b", false},
      {R"([^"\\]*)", "a\\b", false},
      {"a.c", "abc", true},
      {"a.c", "a€c", true},
      {"a.c", "a😀c", true},
      {"a.c", "a\nc", false},  // . is not \n (Python without DOTALL)
      {"a.c", "ac", false},
      {R"([\w.]+@[\w]+\.(com|org))", "john.doe@example.com", true},
      {R"([\w.]+@[\w]+\.(com|org))", "a_1@b.org", true},
      {R"([\w.]+@[\w]+\.(com|org))", "a@b.net", false},
      {R"([\w.]+@[\w]+\.(com|org))", "@b.com", false},
      {R"([\w.]+@[\w]+\.(com|org))", "a@b.c.com", false},
      {"[α-ω]+", "λμ", true},
      {"[α-ω]+", "λA", false},
      {"日本語?", "日本", true},
      {"日本語?", "日本語", true},
      {"😀+", "😀😀😀", true},
      {"😀+", "😀😁", false},
      {R"(\x41\u00e9\u20AC\U0001F600)", "Aé€😀", true},
      {R"(\n\t\r\f\v)", "\n\t\r\f\v", true},
      {R"(\s+)", " \t\n\r\f\v", true},
      {R"(\s)", "\u00a0", false},  // ASCII \s: no no-break space
      {R"(\d)", "٣", false},       // ASCII \d: no Arabic-Indic digit
      {R"(\w+)", "é", false},
      {R"(\D\W\S)", "a x", true},
      {R"(\D\W\S)", "1 x", false},
      {R"(\D\W\S)", "aax", false},
      {R"(\D\W\S)", "a  ", false},
      {R"(\D)", "é", true},
      {R"([^\d\s])", "x", true},
      {R"([^\d\s])", "5", false},
      {R"([^\d\s])", " ", false},
      {R"([\x41-\x43]+)", "ABCA", true},
      {R"([\x41-\x43])", "D", false},
      {"[a-c-]+", "a-c", true},
      {"[-a]+", "-a", true},
      {R"([\w-]+)", "a-b_9", true},
      {R"([\w.-]+)", "a.b-c", true},
      {"[a]]", "a]", true},
      {R"([\]\-\^\[\\"]+)", "]-^[\\\"", true},
  });
}

TEST_CASE("regex: escaped metacharacters and literal brackets", "[grammar]") {
  check_table({
      {R"(\.\\\/\(\)\[\]\{\}\*\+\?\|\^\$\-)", R"(.\/()[]{}*+?|^$-)", true},
      {R"(\.)", "a", false},
      {R"(\"\'\:\,\ \#\&\~)", "\"':, #&~", true},
      {"a]}", "a]}", true},  // a bare ] or } is a literal, as in Python
      {R"([\b])", "\b", true},
  });
}

TEST_CASE("regex: groups, alternation and quantifiers", "[grammar]") {
  check_table({
      {"(ab|cd)+e?", "abcdab", true},
      {"(ab|cd)+e?", "abcde", true},
      {"(ab|cd)+e?", "e", false},
      {"(ab|cd)+e?", "", false},
      {"(ab|cd)+e?", "abc", false},
      {"(?:ab)+", "abab", true},
      {"(?:ab)+", "aba", false},
      {R"((?P<year>\d{4})-(?<month>\d\d))", "2024-05", true},
      {"cat|dog|", "", true},
      {"cat|dog|", "dog", true},
      {"cat|dog|", "cow", false},
      {"a*", "", true},
      {"a*", "aaaa", true},
      {"a+", "", false},
      {"a+", "aaa", true},
      {"a?", "", true},
      {"a?", "aa", false},
      {"a{2}", "aa", true},
      {"a{2}", "aaa", false},
      {"a{2,}", "a", false},
      {"a{2,}", "aaaaa", true},
      {"a{2,3}", "a", false},
      {"a{2,3}", "aaa", true},
      {"a{2,3}", "aaaa", false},
      {"x{0}", "", true},
      {"(ab){1,2}c", "ababc", true},
      {"(ab){1,2}c", "abababc", false},
      {"a+?b*?c??", "aab", true},  // lazy: the same strings as greedy
      {"a+?b*?c??", "aabbc", true},
      {"a{1,2}?", "aa", true},
      {"()", "", true},
      {"(|a)b", "b", true},
      {"(a|ab)(c|bcd)(d*)", "abcd", true},
      {"(a|ab)(c|bcd)(d*)", "abcdd", true},
      {R"(((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))",
       "192.168.0.255", true},
      {R"(((25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d))",
       "192.168.0.256", false},
  });
}

TEST_CASE("regex: anchors and the empty pattern", "[grammar]") {
  check_table({
      {"^abc$", "abc", true},
      {"^abc$", "abcd", false},
      {"^$", "", true},
      {"^a|b$", "b", true},
      {"", "", true},  // the empty pattern matches only the empty string
      {"", "a", false},
      {R"(a\$)", "a$", true},
  });
}

TEST_CASE("regex: the GBNF is readable and escaped", "[grammar]") {
  CHECK(regex_to_gbnf(R"(\d{3}-\d{4})") ==
        "root ::= [0-9] [0-9] [0-9] \"-\" [0-9] [0-9] [0-9] [0-9]\n");
  CHECK(regex_to_gbnf("ab*") == "root ::= \"a\" s1\ns1 ::= \"b\" s1 | \"\"\n");
  CHECK(regex_to_gbnf(".") == "root ::= [^\\n]\n");
  CHECK(regex_to_gbnf(R"([^"\\])") == "root ::= [^\\\"\\\\]\n");
  CHECK(regex_to_gbnf(R"(["\\\]\[\-\^])") == "root ::= [\\\"\\-\\[-\\^]\n");  // [ \ ] ^ are a run
  CHECK(regex_to_gbnf("\"\\\\\\x01") == "root ::= \"\\\"\\\\\\x01\"\n");
  CHECK(regex_to_gbnf("") == "root ::= \"\"\n");
}

TEST_CASE("regex: agrees with std::regex on small ASCII patterns", "[grammar]") {
  // Every string over {a, b, c} up to length 5, against ECMAScript's full match.
  std::vector<std::string> texts = {""};
  for (size_t i = 0; i < texts.size(); ++i) {
    if (texts[i].size() == 5) continue;
    for (char c : std::string("abc")) texts.push_back(texts[i] + c);
  }
  for (const char* pattern :
       {"a*b", "(a|b)*c?", "(ab|a)(bc|c)*", "a{2,3}b{0,1}c{1,}", "[^a]*a", "(a+)+b", "(a*b*)*",
        "((a|b)c|a(b|c))+", "(?:a|)(b|bb)?c*", "[ab]{2}|c+", "(a|ab|abc)*b?", "a.c", "(.)*"}) {
    const auto grammar = compile(pattern);
    const std::regex re(pattern);
    for (const std::string& text : texts) {
      INFO("pattern " << pattern << " text \"" << text << "\"");
      CHECK(matches(grammar, text) == std::regex_match(text, re));
    }
  }
}

TEST_CASE("regex: ambiguous patterns run in linear parses, not exponential ones", "[grammar]") {
  const auto start = std::chrono::steady_clock::now();
  const auto nested = compile("(a+)+b");
  const std::string as(5000, 'a');
  CHECK(matches(nested, as + "b"));
  CHECK_FALSE(matches(nested, as));
  CHECK_FALSE(matches(nested, as + "c"));
  // A split point per digit, as one rule per construct would keep alive.
  const auto split = compile(R"(\w+\d*)");
  CHECK(matches(split, "x" + std::string(5000, '7')));
  const auto words = compile(R"((\w+\s?)+)");
  std::string text;
  for (int i = 0; i < 500; ++i) text += "lorem ipsum ";
  CHECK(matches(words, text));
  CHECK_FALSE(matches(words, text + "!"));
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK(seconds < 10.0);  // about 0.1 s; the bound is for slow, shared machines
}

TEST_CASE("regex: unsupported and malformed patterns are refused at their offset", "[grammar]") {
  using Catch::Contains;
  const auto refuses = [](const std::string& pattern, const std::string& message) {
    INFO("pattern " << pattern);
    CHECK_THROWS_AS(regex_to_gbnf(pattern), GrammarError);
    CHECK_THROWS_WITH(regex_to_gbnf(pattern), Contains(message));
  };
  refuses(R"((a)\1)", "offset 3: backreferences (\\1)");
  refuses(R"((?P<x>a)(?P=x))", "offset 8: backreferences ((?P=name))");
  refuses(R"((?<x>a)\k<x>)", "offset 7: backreferences (\\k<name>)");
  refuses("a(?=b)", "offset 1: lookarounds");
  refuses("a(?!b)", "offset 1: lookarounds");
  refuses("(?<=a)b", "offset 0: lookarounds");
  refuses("(?<!a)b", "offset 0: lookarounds");
  refuses("(?i)abc", "offset 0: inline flags");
  refuses("(?>a)", "offset 0: atomic groups");
  refuses("a*+", "offset 2: possessive");
  refuses("(ab", "offset 0: unbalanced '('");
  refuses("a(b(c)", "offset 1: unbalanced '('");
  refuses("ab)", "offset 2: unbalanced ')'");
  refuses("*a", "offset 0: the quantifier '*' has nothing before it");
  refuses("a|+", "offset 2: the quantifier '+' has nothing before it");
  refuses("(?:)a(*)", "offset 6: the quantifier '*' has nothing before it");
  refuses("a**", "offset 2: a quantifier after a quantifier");
  refuses("a{2}{3}", "offset 4: a quantifier after a quantifier");
  refuses("a{3,2}", "offset 1: a repetition {m,n} with n < m");
  refuses("a{1001}", "offset 2: a repetition count above 1000");
  refuses("a{,3}", "offset 1: '{' starts no quantifier");
  refuses("a{x}", "offset 1: '{' starts no quantifier");
  refuses("a{2", "offset 1: '{' starts no quantifier");
  refuses("a^b", "offset 1: '^' is only supported");
  refuses("a$b", "offset 1: '$' is only supported");
  refuses("(a$)", "offset 2: '$' is only supported");
  refuses(R"(\bfoo)", "offset 0: word boundaries");
  refuses(R"(a\Z)", "offset 1: the anchor \\Z");
  refuses(R"(\p{L})", "offset 0: Unicode properties");
  refuses(R"(\0)", "offset 0: octal escapes");
  refuses(R"(\q)", "offset 0: the escape \\q is not supported");
  refuses(R"(ab\)", "offset 2: a trailing backslash");
  refuses(R"(\x4)", "offset 0: expected 2 hex digits");
  refuses(R"(\uD800)", "offset 0: a surrogate");
  refuses("[[:alpha:]]", "offset 1: POSIX classes");
  refuses("[z-a]", "offset 1: a class range out of order");
  refuses(R"([a-\d])", "offset 1: a class range with a shorthand class");
  refuses("x[abc", "offset 1: unterminated class");
  refuses("[]a]", "offset 0: a class starting with ']'");
  refuses("ab\xff", "offset 2: invalid UTF-8");
  refuses("\xc3(", "offset 0: invalid UTF-8");
  refuses(std::string(kMaxRegexBytes + 1, 'a'), "4097 bytes; at most 4096");
  refuses(std::string(65, '(') + std::string(65, ')'), "offset 64: groups nested deeper than 64");
  refuses(R"([^\s\S])", "the pattern matches no string");
  refuses("(x{1000}){1000}", "offset 9: the repetition expands the pattern past 200000");
  refuses(".*a.{20}", "more than 10000 automaton states");
  CHECK_NOTHROW(regex_to_gbnf(std::string(64, '(') + "a" + std::string(64, ')')));
  CHECK_NOTHROW(regex_to_gbnf(std::string(kMaxRegexBytes, 'a')));
}
