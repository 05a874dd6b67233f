// The statements @huggingface/jinja has: if/elif/else, for (loop variables, else, a filter,
// break, continue), set (plain, block, tuple, namespace attribute), macro, call and filter
// blocks; with its scoping: one scope per for loop, a new one per macro call.
#include <catch2/catch.hpp>

#include "tests/engine/tokenizer/jinja/render_helpers.h"

using namespace infergate::jinja::testing;

namespace {

const Json kMessages = {{"msgs",
                         {{{"role", "user"}, {"content", "hi"}},
                          {{"role", "assistant"}, {"content", "yo"}},
                          {{"role", "user"}, {"content", "bye"}}}},
                        {"l", {3, 1, 2}},
                        {"o", {{"b", 1}, {"a", 2}}}};

}  // namespace

TEST_CASE("jinja: if, elif and else pick the first true branch", "[jinja]") {
  const char* source = "{% if n > 2 %}big{% elif n > 1 %}mid{% else %}small{% endif %}";
  REQUIRE(render(source, {{"n", 3}}) == "big");
  REQUIRE(render(source, {{"n", 2}}) == "mid");
  REQUIRE(render(source, {{"n", 1}}) == "small");
  // Python truthiness: empty lists, objects and strings are false; a namespace is true.
  REQUIRE(render("{% if [] %}a{% endif %}{% if {} %}b{% endif %}{% if '' %}c{% endif %}"
                 "{% if 0.0 %}d{% endif %}{% if namespace() %}e{% endif %}") == "e");
}

TEST_CASE("jinja: for loops set loop.index, first, last, length, previtem, nextitem", "[jinja]") {
  REQUIRE(
      render("{% for m in msgs %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}"
             "{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}|{% endfor %}",
             kMessages) == "1032truefalse3|2121falsefalse3|3210falsetrue3|");
  REQUIRE(
      render("{% for m in msgs %}[{{ loop.previtem.role }}>{{ loop.nextitem.role }}]{% endfor %}",
             kMessages) == "[>assistant][user>user][assistant>]");
  // An inner loop's `loop` hides the outer one until it ends.
  REQUIRE(
      render("{% for x in [1, 2] %}{{ loop.index }}{% for y in [1] %}{{ loop.index }}{% endfor %}"
             "{{ loop.index }}{% endfor %}") == "111212");
}

TEST_CASE("jinja: for loops over objects, pairs, filters, and else", "[jinja]") {
  REQUIRE(render("{% for k in o %}{{ k }}{% endfor %}", kMessages) == "ba");
  REQUIRE(render("{% for k, v in o.items() %}{{ k }}={{ v }};{% endfor %}", kMessages) ==
          "b=1;a=2;");
  REQUIRE(render("{% for x in l if x > 1 %}{{ x }}{{ loop.index }}{% endfor %}", kMessages) ==
          "3122");
  REQUIRE(render("{% for x in [] %}x{% else %}empty{% endfor %}") == "empty");
  REQUIRE(render("{% for x in l if x > 5 %}{{ x }}{% else %}none{% endfor %}", kMessages) ==
          "none");
  REQUIRE(problem_of("{% for x in 'abc' %}{% endfor %}") ==
          "Expected iterable or object type in for loop: got StringValue");
  REQUIRE(problem_of("{% for a, b in [(1, 2)] %}{% endfor %}") ==
          "Cannot unpack non-iterable type: TupleValue");
  REQUIRE(problem_of("{% for a, b in [[1, 2, 3]] %}{% endfor %}") == "Too many items to unpack");
}

TEST_CASE("jinja: break and continue drop the rest of the iteration's output", "[jinja]") {
  REQUIRE(render("{% for x in l %}{% if x == 1 %}{% break %}{% endif %}{{ x }}{% endfor %}",
                 kMessages) == "3");
  REQUIRE(render("{% for x in l %}{% if x == 1 %}{% continue %}{% endif %}{{ x }}{% endfor %}",
                 kMessages) == "32");
  // What the iteration wrote before continue is dropped too, as in @huggingface/jinja.
  REQUIRE(render("{% for x in l %}a{{ x }}{% continue %}{% endfor %}", kMessages) == "");
  // {% else %} runs when no iteration ran to its end.
  REQUIRE(render("{% for x in l %}{% continue %}{% else %}else{% endfor %}", kMessages) == "else");
  REQUIRE(
      render(
          "{% for x in l %}{{ x }}{% if x == 1 %}{% break %}{% endif %}{% else %}else{% endfor %}",
          kMessages) == "3");
  // A break inside a macro ends the loop the macro was called from.
  REQUIRE(render("{% macro m() %}{% break %}{% endmacro %}{% for x in l %}{{ x }}{{ m() }}{% "
                 "endfor %}done",
                 kMessages) == "done");
  REQUIRE(problem_of("{% if true %}{% continue %}{% endif %}") ==
          "'break' or 'continue' outside of a for loop");
}

TEST_CASE("jinja: set writes the current scope, and a for loop has one scope", "[jinja]") {
  REQUIRE(render("{% set x = 5 %}{{ x }}") == "5");
  REQUIRE(render("{% for x in l %}{% set y = x * 2 %}{{ y }}{% endfor %}[{{ y }}]", kMessages) ==
          "624[]");
  // The loop's scope lives across iterations.
  REQUIRE(render("{% for x in l %}{% if loop.first %}{% set f = x %}{% endif %}{{ f }}{% endfor %}",
                 kMessages) == "333");
  REQUIRE(render("{% set y = 1 %}{% for x in l %}{% set y = y + x %}{% endfor %}{{ y }}",
                 kMessages) == "1");
  REQUIRE(render("{% if true %}{% set z = 'leaks' %}{% endif %}{{ z }}") == "leaks");
}

TEST_CASE("jinja: set unpacks tuples and captures blocks", "[jinja]") {
  REQUIRE(render("{% set a, b = 1, 2 %}{{ a }}{{ b }}") == "12");
  REQUIRE(render("{% set x = 1, 2 %}{{ x|length }}") == "2");
  REQUIRE(render("{% set x %}block {{ n }}{% endset %}[{{ x }}]", {{"n", 7}}) == "[block 7]");
  REQUIRE(render("{% set x -%}\n  trimmed\n{%- endset %}[{{ x }}]") == "[trimmed]");
  REQUIRE(problem_of("{% set a, b = [1] %}") == "Too few items to unpack in set");
  REQUIRE(problem_of("{% set a, b = 5 %}") ==
          "Cannot unpack non-iterable type in set: IntegerValue");
}

TEST_CASE("jinja: namespaces carry values out of loops", "[jinja]") {
  REQUIRE(
      render("{% set ns = namespace(total=0) %}{% for x in l %}{% set ns.total = ns.total + x %}"
             "{% endfor %}{{ ns.total }}",
             kMessages) == "6");
  REQUIRE(render("{% set ns = namespace({'x': 1}, y=2) %}{{ ns.x }}{{ ns.y }} {{ ns }}") ==
          "12 {\"x\": 1, \"y\": 2}");
  REQUIRE(render("{% set ns = namespace([['k', 'v'], 'xy']) %}{{ ns.k }}{{ ns.x }}") == "vy");
  // ns[x] assigns the key "x", as in @huggingface/jinja.
  REQUIRE(render("{% set ns = namespace() %}{% set ns[a] = 1 %}{{ ns.a }}") == "1");
  REQUIRE(problem_of("{% set o.a = 1 %}", kMessages) ==
          "cannot assign attribute on non-namespace object");
  REQUIRE(problem_of("{% set ns = namespace(1) %}") == "'IntegerValue' object is not iterable");
  REQUIRE(problem_of("{% set ns = namespace({}, {}) %}") ==
          "namespace expected at most 1 argument, got 2");
}

TEST_CASE("jinja: macros bind arguments, defaults, kwargs and varargs", "[jinja]") {
  REQUIRE(render("{% macro m(a, b=2) %}{{ a }}-{{ b }}{% endmacro %}{{ m(1) }}|{{ m(1, 3) }}|"
                 "{{ m(b=5, a=4) }}|{{ m() }}") == "1-2|1-3|4-5|-2");
  // Defaults see the parameters before them.
  REQUIRE(render("{% macro m(a, b=a * 2) %}{{ b }}{% endmacro %}{{ m(3) }}") == "6");
  REQUIRE(render("{% macro m(a) %}{{ varargs }}{{ kwargs }}{% endmacro %}{{ m(1, 2, 3, c=4) }}") ==
          "[2, 3]{\"c\": 4}");
  REQUIRE(problem_of("{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, 2) }}") ==
          "macro 'm' takes not more than 1 argument(s)");
  REQUIRE(problem_of("{% macro m(a) %}{{ a }}{% endmacro %}{{ m(1, c=2) }}") ==
          "macro 'm' takes no keyword argument 'c'");
  // A macro sees its caller's variables, and writes only its own scope.
  REQUIRE(render("{% macro m() %}{{ y }}{% set z = 1 %}{% endmacro %}{% set y = 'outer' %}{{ m() "
                 "}}[{{ z }}]") == "outer[]");
  REQUIRE(render("{% macro m(n) %}{% if n > 0 %}{{ n }}{{ m(n - 1) }}{% endif %}{% endmacro %}{{ "
                 "m(5) }}") == "54321");
}

TEST_CASE("jinja: call blocks pass caller to the macro", "[jinja]") {
  REQUIRE(render("{% macro w() %}<{{ caller() }}>{% endmacro %}{% call w() %}inner{% endcall %}") ==
          "<inner>");
  REQUIRE(render("{% macro w(x) %}<{{ caller(x * 2) }}>{% endmacro %}{% call(v) w(3) %}v={{ v }}{% "
                 "endcall %}") == "<v=6>");
  REQUIRE(
      problem_of(
          "{% macro w() %}{{ caller(1, 2) }}{% endmacro %}{% call(v) w() %}{{ v }}{% endcall %}") ==
      "macro None takes not more than 1 argument(s)");
}

TEST_CASE("jinja: filter blocks filter what their body renders", "[jinja]") {
  REQUIRE(render("{% filter upper %}abc {{ n }}{% endfilter %}", {{"n", 1}}) == "ABC 1");
  REQUIRE(render("{% filter replace('a', 'b') %}aaa{% endfilter %}") == "bbb");
  REQUIRE(render("{% filter length %}abc{% endfilter %}") == "3");
}

TEST_CASE("jinja: comments render nothing, and the true, false and none globals can be shadowed",
          "[jinja]") {
  REQUIRE(render("a{# anything {{ here }} #}b") == "ab");
  REQUIRE(render("{{ True }}{{ False }}[{{ None }}][{{ none }}]") == "truefalse[][]");
  REQUIRE(render("{% set true = 0 %}{{ true }}") == "0");
}
