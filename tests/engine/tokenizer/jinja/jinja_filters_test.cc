// The filters of @huggingface/jinja, by operand type; a filter it lacks (d, count, select,
// batch, round, ...) raises, as there.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

namespace {

const Json kContext = {{"s", "  Hello World  "},
                       {"l", {3, 1, 2}},
                       {"ls", {"b", "A", "c", "a"}},
                       {"o", {{"b", 1}, {"a", 2}}},
                       {"msgs",
                        {{{"role", "user"}, {"content", "hi"}},
                         {{"role", "assistant"}, {"content", "yo"}, {"x", 1}},
                         {{"role", "user"}, {"content", "bye"}}}}};

}  // namespace

TEST_CASE("jinja: string filters", "[jinja]") {
  REQUIRE(render("[{{ s|trim }}] [{{ s|upper }}] [{{ s|lower }}] {{ s|length }}", kContext) ==
          "[Hello World] [  HELLO WORLD  ] [  hello world  ] 15");
  // title() upper-cases each ASCII word's first letter and keeps the rest.
  REQUIRE(render("{{ 'hELLO wORLD_x y2k é-a'|title }} {{ 'hELLO'|capitalize }}") ==
          "HELLO WORLD_x Y2k é-A HELLO");
  REQUIRE(render("{{ 'ß straße'|upper }} {{ 'ΣΑΣ ΑΣ'|lower }} {{ 'ßa'|capitalize }}") ==
          "SS STRASSE σας ας SSa");
  REQUIRE(render("{{ 'aaa'|replace('a', 'b', 2) }} {{ 'aaa'|replace('a', 'b', count=1) }} "
                 "{{ 'abc'|replace('', '-') }}") == "bba baa -a-b-c-");
  REQUIRE(render("{{ s|string }}|{{ s|join }}|{{ 'a😀b'|join('-') }}", kContext) ==
          "  Hello World  |  Hello World  |a-😀-b");
}

TEST_CASE("jinja: int and float parse as parseInt and parseFloat do", "[jinja]") {
  REQUIRE(render("{{ '42abc'|int }} {{ ' -7.9'|int }} {{ 'x'|int }} {{ 'x'|int(3) }} {{ "
                 "'x'|int(default=4) }}") == "42 -7 0 3 4");
  REQUIRE(render("{{ '3.5e2x'|float }} {{ 'x'|float }} {{ '.5'|float }} {{ '-Infinity'|float }}") ==
          "350.0 0.0 0.5 -Infinity");
  // On numbers: `int` floors, `int(...)` keeps the number as it is.
  REQUIRE(render("{{ 2.5|int }} {{ (-2.5)|int }} {{ 2.5|int() }} {{ 3|float }} {{ true|int }}") ==
          "2 -3 2.5 3.0 1");
}

TEST_CASE("jinja: number and boolean filters", "[jinja]") {
  REQUIRE(render("{{ (-3)|abs }} {{ (-2.5)|abs }} {{ 2.0|string }} {{ 2|string }}") ==
          "3 2.5 2.0 2");
  REQUIRE(render("{{ true|string }} {{ true|float }} {{ false|bool }}") == "true 1.0 false");
  REQUIRE(problem_of("{{ 1|round }}") == "Unknown NumericValue filter: round");
}

TEST_CASE("jinja: list filters", "[jinja]") {
  REQUIRE(render("{{ l|length }} {{ l|first }} {{ l|last }} {{ l|reverse }} {{ l|list }}",
                 kContext) == "3 3 2 [2, 1, 3] [3, 1, 2]");
  REQUIRE(render("{{ l|join }} {{ l|join(', ') }} {{ l|join(separator='-') }} {{ l|string }}",
                 kContext) == "312 3, 1, 2 3-1-2 [3, 1, 2]");
  // join writes none and undefined as nothing.
  REQUIRE(render("{{ [1, none, x, 'a', 1.0, true]|join('|') }}") == "1|||a|1|true");
  // unique compares as JS's Set: 1 and 1.0 are one number, none and undefined one value.
  REQUIRE(render("{{ [1, 1.0, '1', true, none, x, 'a', 'a']|unique }}") ==
          "[1, \"1\", true, null, \"a\"]");
  REQUIRE(render("[{{ []|first }}]") == "[]");
}

TEST_CASE("jinja: sort orders numbers and strings, case-insensitively by default", "[jinja]") {
  REQUIRE(
      render("{{ l|sort }} {{ ls|sort }} {{ ls|sort(true) }} {{ ls|sort(case_sensitive=true) }}",
             kContext) ==
      "[1, 2, 3] [\"A\", \"a\", \"b\", \"c\"] [\"c\", \"b\", \"A\", \"a\"] [\"A\", \"a\", \"b\", "
      "\"c\"]");
  REQUIRE(render("{{ msgs|sort(attribute='role')|map(attribute='content')|join(' ') }}",
                 kContext) == "yo hi bye");
  REQUIRE(render("{{ [true, 0.5, 0]|sort }}") == "[0, 0.5, true]");
  REQUIRE(problem_of("{{ [1, 'a']|sort }}") ==
          "Cannot compare different types: StringValue and IntegerValue");
  REQUIRE(problem_of("{{ [none, 1]|sort }}") == "Cannot compare IntegerValue with NullValue");
}

TEST_CASE("jinja: map, selectattr and rejectattr", "[jinja]") {
  REQUIRE(render("{{ msgs|map(attribute='role')|list }}", kContext) ==
          "[\"user\", \"assistant\", \"user\"]");
  REQUIRE(render("{{ msgs|map(attribute='x', default=0)|list }}", kContext) == "[0, 1, 0]");
  REQUIRE(render("{{ [{'a': {'x': [5, 6]}}]|map(attribute='a.x.1')|list }}") == "[6]");
  REQUIRE(
      render("{{ msgs|selectattr('role', 'equalto', 'user')|map(attribute='content')|join(',') }}",
             kContext) == "hi,bye");
  REQUIRE(render("{{ msgs|rejectattr('role', 'equalto', 'user')|list|length }} "
                 "{{ msgs|selectattr('x')|list|length }} {{ msgs|selectattr('x', "
                 "'defined')|list|length }}",
                 kContext) == "1 1 1");
  REQUIRE(problem_of("{{ msgs|map('upper')|list }}", kContext) ==
          "`map` expressions without `attribute` set are not currently supported.");
  REQUIRE(problem_of("{{ msgs|selectattr(role)|list }}", kContext) ==
          "arguments of `selectattr` must be strings");
  REQUIRE(problem_of("{{ []|selectattr('role', 'bogus')|list }}") == "Unknown test: bogus");
  REQUIRE(problem_of("{{ l|selectattr('x')|list }}", kContext) ==
          "`selectattr` can only be applied to array of objects");
}

TEST_CASE("jinja: object filters", "[jinja]") {
  REQUIRE(render("{{ o|items }} {{ o|length }} {{ o|keys }} {{ o|values }}", kContext) ==
          "[[\"b\", 1], [\"a\", 2]] 2 [\"b\", \"a\"] [1, 2]");
  REQUIRE(render("{{ o|dictsort }} {{ o|dictsort(reverse=true) }} {{ o|get('b') }}", kContext) ==
          "[[\"a\", 2], [\"b\", 1]] [[\"b\", 1], [\"a\", 2]] 1");
  REQUIRE(problem_of("{{ o|string }}", kContext) == "Unknown ObjectValue filter: string");
}

TEST_CASE("jinja: default replaces undefined, or anything false with boolean", "[jinja]") {
  REQUIRE(render("{{ x|default('d') }} [{{ none|default('d') }}] {{ ''|default('d', true) }} "
                 "{{ 0|default('d', boolean=true) }} [{{ x|default() }}]") == "d [] d d []");
  REQUIRE(problem_of("{{ x|default }}") ==
          "Cannot apply filter \"default\" to type: UndefinedValue");
  REQUIRE(problem_of("{{ x|d('dflt') }}") == "Cannot apply filter \"d\" to type: UndefinedValue");
}

TEST_CASE("jinja: indent, safe and the filters @huggingface/jinja lacks", "[jinja]") {
  REQUIRE(render("{{ 'a\\nb\\n\\nc'|indent }}") == "a\n    b\n\n    c");
  REQUIRE(render("{{ 'a\\nb\\n\\nc'|indent(2, true) }}") == "  a\n  b\n\n  c");
  REQUIRE(render("{{ 'a\\nb\\n\\nc'|indent(2, true, true) }}") == "  a\n  b\n  \n  c");
  REQUIRE(render("{{ 'a\\nb'|indent(width=1, first=1) }}") == " a\n b");
  REQUIRE(problem_of("{{ 'a'|indent('  ') }}") == "width must be a number");
  REQUIRE(render("{{ '<b>'|safe }}") == "<b>");
  REQUIRE(problem_of("{{ '<b>'|e }}") == "Unknown StringValue filter: e");
  REQUIRE(problem_of("{{ l|count }}", kContext) == "Unknown ArrayValue filter: count");
  REQUIRE(problem_of("{{ l|batch(2) }}", kContext) == "Unknown ArrayValue filter: batch");
  REQUIRE(problem_of("{{ l|select('odd') }}", kContext) == "Unknown ArrayValue filter: select");
  REQUIRE(problem_of("{{ s|trim() }}", kContext) == "Unknown StringValue filter: trim");
}
