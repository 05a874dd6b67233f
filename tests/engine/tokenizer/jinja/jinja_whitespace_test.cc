// Whitespace as @huggingface/jinja handles it: one trailing newline dropped, trim_blocks and
// lstrip_blocks on (as transformers.js sets them), '-' markers stripping JS whitespace, and
// transformers' {% generation %} tags removed.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

TEST_CASE("jinja: a single trailing newline of the template is dropped", "[jinja]") {
  REQUIRE(render("a\n") == "a");
  REQUIRE(render("a\n\n") == "a\n");
  REQUIRE(render("\n") == "");
  REQUIRE(render("{{ 1 }}\n\n") == "1\n");
}

TEST_CASE("jinja: trim_blocks drops the newline after a block or comment tag", "[jinja]") {
  REQUIRE(render("a\n{% if true %}\nb\n{% endif %}\nc\n") == "a\nb\nc");
  REQUIRE(render("a\n{# note #}\nb") == "a\nb");
  // Not after an expression, and only one newline.
  REQUIRE(render("a\n{{ 1 }}\nb") == "a\n1\nb");
  REQUIRE(render("{% if true %}\n\nx{% endif %}") == "\nx");
  // Only a "\n" right after the tag: a "\r\n" stays.
  REQUIRE(render("a\r\n{% if true %}\r\nb{% endif %}") == "a\r\n\r\nb");
  // The rewrite is textual: "-}" followed by a newline in plain text loses the newline too.
  REQUIRE(render("a -}\nb") == "a -}b");
}

TEST_CASE("jinja: lstrip_blocks drops blanks before a block tag at a line's start", "[jinja]") {
  REQUIRE(render("a\n  {% if true %}\n  b\n  {% endif %}\n  c") == "a\n  b\n  c");
  REQUIRE(render("\t{% if true %}x{% endif %}") == "x");
  // Not when other text precedes the tag on its line, and not before an expression.
  REQUIRE(render("x  {% if true %}y{% endif %}") == "x  y");
  REQUIRE(render("line\n  {{ 'x' }}\n") == "line\n  x");
  REQUIRE(render("  {# c #}\nx") == "x");
}

TEST_CASE("jinja: '-' markers strip all whitespace up to the neighbouring text", "[jinja]") {
  REQUIRE(render("a  {%- if true -%}  b  {%- endif -%}  c") == "abc");
  REQUIRE(render("a {{- 1 -}} b") == "a1b");
  REQUIRE(render("a {#- c -#} b") == "ab");
  REQUIRE(render("{%- if true -%}\n\n  x  \n\n{%- endif -%}\n") == "x");
  // JS whitespace: no-break and ideographic spaces are stripped too.
  REQUIRE(render("\u00a0{{- 1 -}}\u00a0x") == "1x");
  REQUIRE(render("x\u3000{%- if true %}y{% endif %}") == "xy");
  // A zero-width space is not whitespace.
  REQUIRE(render("x\u200b{{- 1 }}") == "x\u200b1");
}

TEST_CASE("jinja: generation tags are removed with their whitespace on a '-' side", "[jinja]") {
  REQUIRE(render("{% generation %}x{% endgeneration %}") == "x");
  REQUIRE(render("a  {% generation %}  b  {% endgeneration %}  c") == "a    b    c");
  REQUIRE(render("a  {%- generation -%}  b  {%- endgeneration -%}  c") == "abc");
  // trim_blocks runs first: the newline after the first tag is already gone.
  REQUIRE(render("a\n{%generation%}\nb\n{% endgeneration %}\n") == "a\nb\n");
}

TEST_CASE("jinja: text that looks like a tag inside a string literal stays text", "[jinja]") {
  REQUIRE(render("{{ '%}' }}\n") == "%}");
  REQUIRE(render("{{ {'a': {'b': 1}} }}") == "{\"a\": {\"b\": 1}}");
  REQUIRE(render("{{ x }}", {{"x", "{{ y }} {% if %}"}}) == "{{ y }} {% if %}");
}
