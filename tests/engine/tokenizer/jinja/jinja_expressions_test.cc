// Expressions as @huggingface/jinja evaluates them: JS numbers (integers and floats are both
// doubles), its string and list operators, loose == and strict `in`, subscripts and slices.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

TEST_CASE("jinja: integer and float arithmetic prints as @huggingface/jinja prints it", "[jinja]") {
  REQUIRE(render("{{ 7 // 2 }} {{ -7 // 2 }} {{ 7.0 // 2 }}") == "3 -4 3.0");
  REQUIRE(render("{{ 7 % 3 }} {{ -7 % 3 }} {{ 7.5 % 2 }}") == "1 -1 1.5");
  REQUIRE(render("{{ 7 / 2 }} {{ 6 / 2 }} {{ 3 * 1.0 }} {{ 1.0 }} {{ -0.0 }}") ==
          "3.5 3.0 3.0 1.0 -0.0");
  REQUIRE(render("{{ 2 ** 10 }} {{ 2 ** -1 }} {{ 2 ** 3 ** 2 }} {{ -2 ** 2 }}") == "1024 0.5 64 4");
  REQUIRE(render("{{ 0.1 + 0.2 }} {{ 0.0000001 }} {{ 10 ** 21 }} {{ 2 ** 64 }}") ==
          "0.30000000000000004 1e-7 1e+21 18446744073709552000");
  REQUIRE(render("{{ 1 / 0 }} {{ 0 / 0 }} {{ 1 // 0 }}") == "Infinity NaN Infinity");
  REQUIRE(render("{{ 1 + 2 * 3 }} {{ (1 + 2) * 3 }} {{ 10 - 2 - 3 }}") == "7 9 5");
  REQUIRE(render("{{ -n }} {{ +n }} {{ - n }} {{ n-1 }} {{ n -1 }}", {{"n", 3}}) == "-3 3 -3 2 2");
  REQUIRE(problem_of("{{ 0 ** -1 }}") == "0.0 cannot be raised to a negative power");
  REQUIRE(problem_of("{{ (-8) ** 0.5 }}") == "Exponentiation result is not a finite real number");
}

TEST_CASE("jinja: numbers from the context are doubles, integral ones integers", "[jinja]") {
  const Json context = {{"one", 1.0}, {"half", 0.5}, {"big", 12345678901234567890ull}};
  REQUIRE(render("{{ one }} {{ half }} {{ big }} {{ one is integer }}", context) ==
          "1 0.5 12345678901234567000 true");
}

TEST_CASE("jinja: + joins when either side is a string, ~ always joins", "[jinja]") {
  REQUIRE(render("{{ 'a' + 'b' }} {{ 'a' + 1 }} {{ 1 + 'a' }} {{ 'a' + 1.0 }}") == "ab a1 1a a1");
  REQUIRE(render("{{ 'a' ~ 1.5 }} {{ 'a' ~ true }} {{ 1 ~ 2 }}") == "a1.5 atrue 12");
  // A list joins its items' text with ","; an object is "[object Map]", as in JS.
  REQUIRE(render("{{ 'a' + [1, 2.0, 'x', [3, 4], none] }}") == "a1,2.0,x,[3, 4],undefined");
  REQUIRE(render("{{ 'a' + {'k': 1} }}") == "a[object Map]");
  REQUIRE(render("{{ [1] + [2, 3] }}") == "[1, 2, 3]");
  REQUIRE(problem_of("{{ 'a' ~ none }}") == "Cannot perform operation on null values");
  REQUIRE(problem_of("{{ 'a' ~ x }}") == "Cannot perform operation ~ on undefined values");
  REQUIRE(problem_of("{{ 'a' * 3 }}") ==
          "Unknown operator \"*\" between StringValue and IntegerValue");
}

TEST_CASE("jinja: == compares loosely as JS does, lists and objects by identity", "[jinja]") {
  REQUIRE(
      render("{{ 1 == 1.0 }} {{ '1' == 1 }} {{ true == 1 }} {{ '' == 0 }} {{ ' 0x10 ' == 16 }}") ==
      "true true true true true");
  REQUIRE(render("{{ none == x }} {{ none == 0 }} {{ none == false }} {{ 'abc' != 'abc' }}") ==
          "true false false false");
  REQUIRE(render("{{ [1] == '1' }} {{ [1, 2] == '1,2' }} {{ [1] == [1] }}") == "true true false");
  REQUIRE(render("{% set a = [1] %}{% set b = a %}{{ a == b }}") == "true");
  // Only numbers compare with < and friends.
  REQUIRE(render("{{ 1 < 2 }} {{ 2.5 >= 2 }} {{ 1 <= 1 }}") == "true true true");
  REQUIRE(problem_of("{{ 'a' < 'b' }}") ==
          "Unknown operator \"<\" between StringValue and StringValue");
}

TEST_CASE("jinja: in and not in look into lists, strings and object keys", "[jinja]") {
  const Json context = {{"l", {3, 1, 2}}, {"o", {{"a", 1}}}};
  REQUIRE(render("{{ 1 in l }} {{ 1.0 in l }} {{ '1' in l }} {{ 5 not in l }}", context) ==
          "true true false true");
  REQUIRE(render("{{ 'b' in 'abc' }} {{ '' in 'a' }} {{ 'a' in o }} {{ 'x' not in o }}", context) ==
          "true true true true");
  // Anything is not in undefined.
  REQUIRE(render("{{ 'a' in nothing }} {{ 'a' not in nothing }}") == "false true");
  REQUIRE(problem_of("{{ 'a' in none }}") == "Cannot perform operation on null values");
  REQUIRE(problem_of("{{ [1] in [[1]] }}") ==
          "Unknown operator \"in\" between ArrayValue and ArrayValue");
}

TEST_CASE("jinja: and, or and not short-circuit and return operands", "[jinja]") {
  REQUIRE(render("{{ [] or 'empty' }} {{ 0 and 1 }} {{ 'x' and 'y' }} {{ not 0 }}") ==
          "empty 0 y true");
  REQUIRE(render("{{ false and undefined.fails() }}") == "false");
  REQUIRE(render("{{ not 'z' in 'abc' }} {{ not n == 5 }}", {{"n", 5}}) == "true false");
}

TEST_CASE("jinja: a if b else c, and a if b without else", "[jinja]") {
  REQUIRE(render("{{ 'y' if n > 1 else 'n' }}", {{"n", 3}}) == "y");
  REQUIRE(render("{{ 'a' if false else 'b' if false else 'c' }}") == "c");
  REQUIRE(render("[{{ 'y' if false }}]") == "[]");
  REQUIRE(render("{{ 1 if true else x.y.z }}") == "1");
}

TEST_CASE("jinja: literals: lists, tuples, objects, strings and escapes", "[jinja]") {
  REQUIRE(render("{{ [1, 'a', none, true, 1.5] }}") == "[1, \"a\", null, true, 1.5]");
  REQUIRE(render("{{ [1 2 3] }} {{ {'a': 1 'b': 2} }}") == "[1, 2, 3] {\"a\": 1, \"b\": 2}");
  REQUIRE(render("{{ [x] }}") == "[undefined]");
  REQUIRE(render("{{ 'a' 'b' \"c\" }} {{ 'it\\'s' }}") == "abc it's");
  REQUIRE(render("{{ '\\x41\\u00e9\\ud83d\\ude00\\t|' }}") == "A\u00e9\U0001F600\t|");
  REQUIRE(render("{{ (1, 2)|length }} {{ (1, 2)[1] }} {{ (1, 2) + [3] }}") == "2 2 [1, 2, 3]");
  REQUIRE(problem_of("{{ (1, 2) }}") == "Cannot convert to JSON: TupleValue");
  REQUIRE(problem_of("{{ {1: 2} }}") == "Object keys must be strings: got IntegerValue");
  REQUIRE(problem_of("{{ '\\q' }}") == "Unexpected escaped character: q");
}

TEST_CASE("jinja: subscripts and attributes of lists, strings and objects", "[jinja]") {
  const Json context = {{"l", {3, 1, 2}},
                        {"s", "héllo 😀"},
                        {"o", {{"b", 1}, {"a", {{"x", {1, 2}}}}}},
                        {"msgs", {{{"role", "user"}}, {{"role", "assistant"}}}}};
  REQUIRE(render("{{ l[0] }} {{ l[-1] }} [{{ l[5] }}] {{ l.0 }} {{ l.length }}", context) ==
          "3 2 [] 3 3");
  REQUIRE(render("{{ msgs.1.role }} {{ msgs[-1]['role'] }} {{ o['a'].x[1] }} {{ o.a.x }}",
                 context) == "assistant assistant 2 [1, 2]");
  REQUIRE(render("{{ s[0] }} {{ s[1] }} {{ s.length }} {{ s|length }}", context) == "h é 8 8");
  // Missing keys, and attributes of undefined and none, are undefined.
  REQUIRE(render("[{{ o.missing }}{{ nothing.a.b }}{{ none.a }}{{ l.append }}]", context) == "[]");
  REQUIRE(problem_of("{{ o[1] }}", context) ==
          "Cannot access property with non-string: got IntegerValue");
  REQUIRE(problem_of("{{ l[1.0] }}", context) ==
          "Cannot access property with non-string/non-number: got FloatValue");
}

TEST_CASE("jinja: slices of lists and strings, with negative steps", "[jinja]") {
  const Json context = {{"l", {1, 2, 3, 4}}, {"s", "abc😀"}};
  REQUIRE(render("{{ l[1:] }} {{ l[:2] }} {{ l[::-1] }} {{ l[-2:] }} {{ l[::2] }}", context) ==
          "[2, 3, 4] [1, 2] [4, 3, 2, 1] [3, 4] [1, 3]");
  REQUIRE(render("{{ l[1::-1] }} {{ l[2:-1:-1] }} {{ l[::0] }} {{ l[10:] }}", context) ==
          "[2, 1] [3, 2, 1] [] []");
  REQUIRE(render("{{ s[::-1] }} {{ s[1:3] }}", context) == "😀cba bc");
  REQUIRE(problem_of("{{ l['a':] }}", context) == "Slice start must be numeric or undefined");
  REQUIRE(problem_of("{{ 5[1:] }}") == "Slice object must be an array or string");
}

TEST_CASE("jinja: calls take positional, keyword and unpacked arguments", "[jinja]") {
  REQUIRE(render("{% macro m(a, b) %}{{ a }}{{ b }}{% endmacro %}{{ m(*[1, 2]) }} {{ m(**{'b': 4, "
                 "'a': 3}) }}") == "12 34");
  REQUIRE(render("{{ range(*[3]) }}") == "[0, 1, 2]");
  REQUIRE(problem_of("{{ f(a=1, 2) }}") ==
          "Positional arguments must come before keyword arguments");
  REQUIRE(problem_of("{% macro m(a) %}{% endmacro %}{{ m(a=1, **{'a': 2}) }}") ==
          "Got multiple values for keyword argument 'a'");
  REQUIRE(problem_of("{{ x() }}") ==
          "Cannot call something that is not a function: got UndefinedValue");
}
