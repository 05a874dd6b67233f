// Hostile templates stop with a TemplateError that names the template and the limit, before
// the time or memory is spent: endless loops, recursion, huge ranges and strings, deep nesting.
#include <catch2/catch.hpp>

#include <chrono>
#include <string>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja;
using namespace infergate::jinja::testing;

namespace {

std::string repeat(const std::string& text, int times) {
  std::string out;
  for (int i = 0; i < times; ++i) out += text;
  return out;
}

bool mentions(const std::string& error, const std::string& what) {
  return error.find(what) != std::string::npos && error.rfind("test.jinja:", 0) == 0;
}

}  // namespace

TEST_CASE("jinja: a huge range is refused before it is built", "[jinja]") {
  const std::string error = error_of("{% for i in range(100000000) %}x{% endfor %}");
  REQUIRE(
      error ==
      "test.jinja:1:13: a list of 100000000 elements would pass 1000000 (Limits::max_collection)");
  REQUIRE(mentions(error_of("{{ range(0, 1, 0.0000001) }}"), "Limits::max_collection"));
}

TEST_CASE("jinja: nested loops stop at max_steps", "[jinja]") {
  const auto start = std::chrono::steady_clock::now();
  const std::string error = error_of(
      "{% for i in range(1000000) %}{% for j in range(1000000) %}{% endfor %}{% endfor %}");
  REQUIRE(mentions(error, "Limits::max_steps"));
  REQUIRE(std::chrono::steady_clock::now() - start < std::chrono::seconds(30));
  Limits small;
  small.max_steps = 1000;
  REQUIRE(mentions(error_of("{% for i in range(1000) %}{{ i }}{% endfor %}", {}, small),
                   "Limits::max_steps"));
  REQUIRE(render("{% for i in range(10) %}{{ i }}{% endfor %}", {}, small) == "0123456789");
}

TEST_CASE("jinja: recursion stops at max_depth", "[jinja]") {
  REQUIRE(
      mentions(error_of("{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}"), "Limits::max_depth"));
  REQUIRE(mentions(
      error_of(
          "{% macro m(n) %}{% if n > 0 %}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ m(100000) }}"),
      "Limits::max_depth"));
  // Recursion through caller() too.
  REQUIRE(mentions(error_of("{% macro w() %}{% call w() %}{% endcall %}{% endmacro %}{{ w() }}"),
                   "Limits::max_depth"));
}

TEST_CASE("jinja: output and strings stop at max_output_bytes", "[jinja]") {
  REQUIRE(mentions(error_of("{% for i in range(100000) %}" + repeat("x", 400) + "{% endfor %}"),
                   "Limits::max_output_bytes"));
  // Doubling a string inside a loop.
  REQUIRE(mentions(
      error_of("{% set s = 'a' %}{% for i in range(100) %}{% set s = s ~ s %}{% endfor %}"),
      "Limits::max_output_bytes"));
  REQUIRE(mentions(error_of("{{ [1]|tojson(indent=1000000000) }}"), "Limits::max_output_bytes"));
  REQUIRE(mentions(error_of("{{ 'a\\nb'|indent(1000000000) }}"), "Limits::max_output_bytes"));
  Limits small;
  small.max_output_bytes = 10;
  REQUIRE(mentions(error_of("{{ 'abcdefghijk' }}", {}, small), "Limits::max_output_bytes"));
  REQUIRE(render("{{ 'abcdefghij' }}", {}, small) == "abcdefghij");
}

TEST_CASE("jinja: lists stop at max_collection", "[jinja]") {
  REQUIRE(
      mentions(error_of("{% set l = [1] %}{% for i in range(64) %}{% set l = l + l %}{% endfor %}"),
               "Limits::max_collection"));
  REQUIRE(mentions(error_of("{{ s.split(',') }}", {{"s", std::string(2000000, ',')}}),
                   "Limits::max_collection"));
  Limits small;
  small.max_collection = 3;
  REQUIRE(mentions(error_of("{{ l }}", {{"l", {1, 2, 3, 4}}}, small), "Limits::max_collection"));
}

TEST_CASE("jinja: deep nesting is refused, in the syntax and in values", "[jinja]") {
  const int deep = 100000;
  REQUIRE(mentions(error_of("{{ " + repeat("(", deep) + "1" + repeat(")", deep) + " }}"),
                   "Limits::max_depth"));
  REQUIRE(mentions(error_of("{{ 1" + repeat(" + 1", deep) + " }}"), "Limits::max_depth"));
  REQUIRE(mentions(error_of("{{ " + repeat("not ", deep) + "1 }}"), "Limits::max_depth"));
  REQUIRE(mentions(error_of("{{ x" + repeat("|upper", deep) + " }}"), "Limits::max_depth"));
  REQUIRE(mentions(error_of(repeat("{% if true %}", deep) + repeat("{% endif %}", deep)),
                   "Limits::max_depth"));
  REQUIRE(mentions(
      error_of("{% set x = [] %}{% for i in range(100000) %}{% set x = [x] %}{% endfor %}"),
      "Limits::max_depth"));
  // A namespace holding itself cannot be written out forever.
  REQUIRE(mentions(error_of("{% set ns = namespace() %}{% set ns.me = ns %}{{ ns|tojson }}"),
                   "Limits::max_depth"));
  Json nested = 1;
  for (int i = 0; i < 1000; ++i) nested = Json::array({nested});
  REQUIRE(error_of("{{ x }}", {{"x", nested}}).find("Limits::max_depth") != std::string::npos);
}

TEST_CASE("jinja: the parse nesting limit comes from the template's Limits", "[jinja]") {
  Limits shallow;
  shallow.max_depth = 3;
  REQUIRE_THROWS_WITH(Template("{{ [[[1]]] }}", "t", shallow),
                      "t:1:6: the template nests deeper than 3 levels (Limits::max_depth)");
  REQUIRE(Template("{{ [1] }}", "t", shallow).render({}) == "[1]");
}

TEST_CASE("jinja: a long string slices without a list of its characters", "[jinja]") {
  const std::string text(4000000, 'a');
  REQUIRE(render("{{ s[::-1]|length }} {{ s[::-1][:3] }} {{ s[-2:] }}", {{"s", text + "bc"}}) ==
          "4000002 cba bc");
}

TEST_CASE("jinja: namespaces and loop exits in a loop cost steps", "[jinja]") {
  REQUIRE(
      mentions(error_of("{% for i in range(1000000) %}{% set ns = namespace(a=i) %}{% endfor %}"),
               "Limits::max_steps"));
  REQUIRE(mentions(error_of("{% macro c() %}{% continue %}{% endmacro %}{% for i in range(1000000) "
                            "%}{{ c() }}{% endfor %}"),
                   "Limits::max_steps"));
}
