// `is` tests, the methods of strings and objects, and the global functions (range, namespace,
// raise_exception) as @huggingface/jinja has them.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

TEST_CASE("jinja: is tests", "[jinja]") {
  const Json context = {{"n", 5},   {"f", 2.5},        {"one", 1.0},  {"s", "abc"},
                        {"l", {1}}, {"o", {{"a", 1}}}, {"z", nullptr}};
  REQUIRE(render("{{ n is odd }}{{ n is even }}{{ n is number }}{{ f is number }}{{ n is integer }}"
                 "{{ f is integer }}{{ one is integer }}",
                 context) == "truefalsetruetruetruefalsetrue");
  REQUIRE(render("{{ s is string }}{{ l is iterable }}{{ s is iterable }}{{ o is iterable }}"
                 "{{ (1, 2) is iterable }}",
                 context) == "truetruetruefalsefalse");
  REQUIRE(render("{{ o is mapping }}{{ l is mapping }}{{ l is sequence }}{{ o is sequence }}{{ n "
                 "is sequence }}",
                 context) == "truefalsetruetruefalse");
  REQUIRE(
      render(
          "{{ z is none }}{{ x is none }}{{ z is defined }}{{ x is defined }}{{ x is undefined }}"
          "{{ x is not defined }}",
          context) == "truefalsetruefalsetruetrue");
  REQUIRE(render("{{ true is true }}{{ 1 is true }}{{ false is false }}{{ true is boolean }}"
                 "{{ range is callable }}{{ s.upper is callable }}",
                 context) == "truefalsetruetruetruetrue");
  REQUIRE(render("{{ 'abc' is lower }}{{ 'aBc' is lower }}{{ 'ABC' is upper }}{{ n is lower }}",
                 context) == "truefalsetruefalse");
  // Tests bind tighter than arithmetic: 'x' ~ (4 is even).
  REQUIRE(render("{{ 'x' ~ 4 is even }} {{ (4 * 4) is even }} {{ n is not odd }}", context) ==
          "xtrue true false");
  REQUIRE(problem_of("{{ f is odd }}", context) == "cannot odd on FloatValue");
  REQUIRE(problem_of("{{ n is foo }}", context) == "Unknown test: foo");
}

TEST_CASE("jinja: string methods", "[jinja]") {
  const Json context = {{"s", "  Hello World  "}};
  REQUIRE(render("[{{ s.strip() }}][{{ s.lstrip() }}][{{ s.rstrip() }}]", context) ==
          "[Hello World][Hello World  ][  Hello World]");
  // strip's argument is ignored: it strips all whitespace, as @huggingface/jinja does.
  REQUIRE(render("[{{ '\\n\\n x \\n'.strip('\\n') }}]") == "[x]");
  REQUIRE(render("{{ s.upper() }}|{{ s.lower() }}|{{ 'a b'.title() }}|{{ 'ab'.capitalize() }}",
                 context) == "  HELLO WORLD  |  hello world  |A B|Ab");
  REQUIRE(
      render("{{ s.startswith('  H') }} {{ s.startswith(('x', '  ')) }} {{ s.endswith('d  ') }}",
             context) == "true true true");
  REQUIRE(
      render("{{ s.split() }} {{ 'a,b,,c'.split(',') }} {{ 'a,b,,c'.split(',', 1) }}", context) ==
      "[\"Hello\", \"World\"] [\"a\", \"b\", \"\", \"c\"] [\"a\", \"b,,c\"]");
  REQUIRE(render("{{ ' a  b c '.split(none, 1) }}") == "[\"a\", \"b c \"]");
  REQUIRE(render("{{ 'aaa'.replace('a', 'b') }} {{ 'aaa'.replace('a', 'b', count=1) }}") ==
          "bbb baa");
  REQUIRE(render("{{ '</think>x'.split('</think>')[-1] }}") == "x");
  REQUIRE(problem_of("{{ 'abc'.split('') }}") == "empty separator");
  REQUIRE(problem_of("{{ 'a'.startswith(1) }}") ==
          "startswith() argument must be a string or tuple of strings");
}

TEST_CASE("jinja: object methods", "[jinja]") {
  const Json context = {{"o", {{"b", 1}, {"A", 2}, {"a", 3}}}};
  REQUIRE(render("{{ o.get('b') }} {{ o.get('q') }} {{ o.get('q', 7) }}", context) == "1  7");
  REQUIRE(render("{{ o.items() }} {{ o.keys() }} {{ o.values() }}", context) ==
          "[[\"b\", 1], [\"A\", 2], [\"a\", 3]] [\"b\", \"A\", \"a\"] [1, 2, 3]");
  REQUIRE(render("{{ o.dictsort() }} {{ o.dictsort(by='value', reverse=true) }}", context) ==
          "[[\"A\", 2], [\"a\", 3], [\"b\", 1]] [[\"a\", 3], [\"A\", 2], [\"b\", 1]]");
  // A key of the object wins over a method of the same name.
  REQUIRE(render("{{ {'items': 5}.items }}") == "5");
  REQUIRE(problem_of("{{ o.get(1) }}", context) == "Object key must be a string: got IntegerValue");
}

TEST_CASE("jinja: range, namespace and raise_exception", "[jinja]") {
  REQUIRE(
      render("{{ range(3) }} {{ range(2, 5) }} {{ range(5, 0, -2) }} {{ range(0, 1, 0.25) }}") ==
      "[0, 1, 2] [2, 3, 4] [5, 3, 1] [0, 0.25, 0.5, 0.75]");
  REQUIRE(render("{{ range(3, 1) }} {{ range(2, none) }}") == "[] [0, 1]");
  REQUIRE(problem_of("{{ range(1, 2, 0) }}") == "range() step must not be zero");
  REQUIRE(render("{% set ns = namespace(a=1) %}{{ ns.a }}") == "1");
  const std::string error = error_of("line one\n{{ raise_exception('Roles must alternate') }}");
  REQUIRE(error == "test.jinja:2:4: Roles must alternate");
  REQUIRE(problem_of("{{ raise_exception() }}") == "");
}

TEST_CASE("jinja: strftime_now formats the local time", "[jinja]") {
  const std::string now = render("{{ strftime_now('%Y-%m-%d %H:%M %% %b') }}");
  REQUIRE(now.size() == std::string("2026-01-31 23:59 % Jan").size());
  REQUIRE(now[4] == '-');
  REQUIRE(now.substr(16, 3) == " % ");
}
