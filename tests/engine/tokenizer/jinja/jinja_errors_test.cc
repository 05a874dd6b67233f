// TemplateError names the template, the line and column, and the problem, for syntax errors
// found when the template is built and for errors found while rendering.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja;
using namespace infergate::jinja::testing;

TEST_CASE("jinja: syntax errors are raised when the template is built", "[jinja]") {
  REQUIRE_THROWS_AS(Template("{% if x %}", "t"), TemplateError);
  REQUIRE(error_of("line 1\n{% if x %}") ==
          "test.jinja:2:11: Unexpected end of template, expected {% endif %}");
  REQUIRE(error_of("{{ 1 + }}") == "test.jinja:1:8: Unexpected token: CloseExpression");
  REQUIRE(error_of("ab\n  {% endfor %}") == "test.jinja:2:6: Unknown statement type: endfor");
  REQUIRE(error_of("{% for x of y %}{% endfor %}") ==
          "test.jinja:1:10: Expected `in` keyword following loop variable");
  REQUIRE(error_of("{# never closed") == "test.jinja:1:1: Missing end of comment tag");
  REQUIRE(error_of("{{ 'abc") == "test.jinja:1:8: Unexpected end of input");
  REQUIRE(error_of("x\n{{ a ! b }}") == "test.jinja:2:6: Unexpected character: !");
  REQUIRE(error_of("{% raw %}x{% endraw %}") == "test.jinja:1:4: Unknown statement type: raw");
  REQUIRE(error_of("{% macro m(a, a) %}{% endmacro %}") ==
          "test.jinja:1:15: Duplicate parameter name: a");
}

TEST_CASE("jinja: columns count characters and survive the whitespace rewrites", "[jinja]") {
  // Two-byte characters before the error count once each.
  REQUIRE(error_of("éé{{ x.y( }}") == "test.jinja:1:11: Unexpected token: CloseExpression");
  // lstrip_blocks and trim_blocks moved the text; the position is still the source's.
  REQUIRE(error_of("a\n    {% if true %}\n{{ 1 + }}\n{% endif %}") ==
          "test.jinja:3:8: Unexpected token: CloseExpression");
}

TEST_CASE("jinja: render errors point at the innermost expression", "[jinja]") {
  REQUIRE(error_of("{% for m in msgs %}\n  {{ m.content | trim }}\n{% endfor %}",
                   {{"msgs", {{{"content", nullptr}}}}}) ==
          "test.jinja:2:18: Cannot apply filter \"trim\" to type: NullValue");
  REQUIRE(error_of("{{ 1 }}{{ 'a' + x }}") ==
          "test.jinja:1:15: Cannot perform operation + on undefined values");
  REQUIRE(error_of("{{ x.y() }}") ==
          "test.jinja:1:4: Cannot call something that is not a function: got UndefinedValue");
}

TEST_CASE("jinja: context keys cannot replace the globals", "[jinja]") {
  REQUIRE(error_of("x", {{"range", 1}}) == "test.jinja: Variable already declared: range");
  REQUIRE(error_of("x", {{"namespace", 1}}) == "test.jinja: Variable already declared: namespace");
  REQUIRE(error_of("x", Json::array()) == "test.jinja: the context must be a JSON object");
  REQUIRE(render("x", nullptr) == "x");
}

TEST_CASE("jinja: a template renders many times and moves", "[jinja]") {
  Template first("{{ a }}", "first");
  REQUIRE(first.render({{"a", 1}}) == "1");
  REQUIRE(first.render({{"a", "two"}}) == "two");
  Template moved = std::move(first);
  REQUIRE(moved.name() == "first");
  REQUIRE(moved.render({{"a", true}}) == "true");
}
