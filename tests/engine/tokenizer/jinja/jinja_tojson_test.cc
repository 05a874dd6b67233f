// tojson and the text of lists and objects, byte for byte as @huggingface/jinja writes them:
// Python json.dumps's separators, JSON.stringify's strings and numbers, the caller's key order.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

TEST_CASE("jinja: tojson keeps key order and writes Python's separators", "[jinja]") {
  const Json tool = Json::parse(
      R"({"type": "function", "function": {"name": "f", "parameters": {"z": 1, "a": [true, null]}}})");
  REQUIRE(
      render("{{ tool|tojson }}", {{"tool", tool}}) ==
      R"({"type": "function", "function": {"name": "f", "parameters": {"z": 1, "a": [true, null]}}})");
  // JS lists array-index keys first, in ascending order.
  REQUIRE(render("{{ o|tojson }}", {{"o", Json::parse(R"({"b": 1, "10": 2, "2": 3, "a": 4})")}}) ==
          R"({"2": 3, "10": 2, "b": 1, "a": 4})");
}

TEST_CASE("jinja: tojson with indent", "[jinja]") {
  REQUIRE(render("{{ {'a': [1, {'b': none}], 'c': {}}|tojson(indent=2) }}") ==
          "{\n  \"a\": [\n    1,\n    {\n      \"b\": null\n    }\n  ],\n  \"c\": {}\n}");
  REQUIRE(render("{{ [[], {}]|tojson(indent=1) }}") == "[\n [],\n {}\n]");
  // indent=0 writes no newlines, as JS's truthiness decides.
  REQUIRE(render("{{ [1, 2]|tojson(indent=0) }}") == "[1, 2]");
  REQUIRE(problem_of("{{ [1]|tojson(indent='2') }}") == "If set, indent must be a number");
}

TEST_CASE("jinja: tojson options: separators, ensure_ascii, sort_keys", "[jinja]") {
  REQUIRE(render("{{ {'a': 1, 'b': [2]}|tojson(separators=(',', ':')) }}") == R"({"a":1,"b":[2]})");
  REQUIRE(render("{{ 'é😀\\x7f'|tojson(ensure_ascii=true) }}") == R"("\u00e9\ud83d\ude00\u007f")");
  REQUIRE(render("{{ {'b': 1, 'a': 2}|tojson(sort_keys=true) }}") == R"({"a": 2, "b": 1})");
  REQUIRE(problem_of("{{ 1|tojson(separators=[',']) }}") ==
          "separators must be a tuple of two strings");
}

TEST_CASE("jinja: tojson writes strings and numbers as JSON.stringify does", "[jinja]") {
  REQUIRE(render("{{ 'é \\x01\\x1f\"\\\\/\\n\\t'|tojson }}") ==
          "\"é \\u0001\\u001f\\\"\\\\/\\n\\t\"");
  REQUIRE(render("{{ [1 / 0, 0 / 0, -0.0, 1.0, 2.5 / 100000000, 10 ** 21]|tojson }}") ==
          "[null, null, 0, 1, 2.5e-8, 1e+21]");
  REQUIRE(render("{{ x|tojson }} {{ [x]|tojson }} {{ none|tojson }}") == "null [null] null");
  REQUIRE(problem_of("{{ (1, 2)|tojson }}") == "Cannot convert to JSON: TupleValue");
  REQUIRE(problem_of("{{ range|tojson }}") == "Cannot convert to JSON: FunctionValue");
}

TEST_CASE("jinja: lists and objects written out show undefined", "[jinja]") {
  REQUIRE(render("{{ [x, none] }} {{ {'a': x} }} {{ [x]|string }}") ==
          "[undefined, null] {\"a\": undefined} [undefined]");
}
