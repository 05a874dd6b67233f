// The JavaScript semantics the interpreter reproduces, unit by unit: Number's text, parseInt and
// parseFloat, == on strings, UTF-16 lengths and order, JS whitespace and case mappings, and the
// preprocessing of template text.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/preprocess.h"

using namespace infergate::jinja;

TEST_CASE("jinja: numbers print as JS's Number.prototype.toString", "[jinja]") {
  REQUIRE(js_number_to_string(0) == "0");
  REQUIRE(js_number_to_string(-0.0) == "0");
  REQUIRE(js_number_to_string(42) == "42");
  REQUIRE(js_number_to_string(-1.5) == "-1.5");
  REQUIRE(js_number_to_string(0.1 + 0.2) == "0.30000000000000004");
  REQUIRE(js_number_to_string(1e21) == "1e+21");
  REQUIRE(js_number_to_string(1e20) == "100000000000000000000");
  REQUIRE(js_number_to_string(123456789e15) == "1.23456789e+23");
  REQUIRE(js_number_to_string(0.000001) == "0.000001");
  REQUIRE(js_number_to_string(1.5e-7) == "1.5e-7");
  REQUIRE(js_number_to_string(std::pow(2.0, 64)) == "18446744073709552000");
  REQUIRE(js_number_to_string(std::numeric_limits<double>::infinity()) == "Infinity");
  REQUIRE(js_number_to_string(std::nan("")) == "NaN");
  REQUIRE(js_number_to_string(5e-324) == "5e-324");
}

TEST_CASE("jinja: floats print as @huggingface/jinja's FloatValue", "[jinja]") {
  REQUIRE(js_float_to_string(2) == "2.0");
  REQUIRE(js_float_to_string(-0.0) == "-0.0");
  REQUIRE(js_float_to_string(2.5) == "2.5");
  REQUIRE(js_float_to_string(std::pow(2.0, 60)) == "1152921504606846976.0");
  REQUIRE(js_float_to_string(1e21) == "1e+21");
  REQUIRE(js_float_to_string(-std::numeric_limits<double>::infinity()) == "-Infinity");
}

TEST_CASE("jinja: parseInt, parseFloat and Number() of strings", "[jinja]") {
  REQUIRE(js_parse_int("  -12.9abc") == -12);
  REQUIRE(std::isnan(js_parse_int("abc")));
  REQUIRE(js_parse_int("\u00a0 7") == 7);
  REQUIRE(js_parse_float("3.5e2x") == 350);
  REQUIRE(js_parse_float(".5") == 0.5);
  REQUIRE(js_parse_float("1.") == 1);
  REQUIRE(js_parse_float("-Infinityx") == -std::numeric_limits<double>::infinity());
  REQUIRE(std::isnan(js_parse_float("e5")));
  REQUIRE(js_string_to_number("") == 0);
  REQUIRE(js_string_to_number(" 0x1F ") == 31);
  REQUIRE(js_string_to_number("0b101") == 5);
  REQUIRE(js_string_to_number("1e3") == 1000);
  REQUIRE(std::isnan(js_string_to_number("1e")));
  REQUIRE(std::isnan(js_string_to_number("-0x10")));
  REQUIRE(std::isnan(js_string_to_number("12px")));
}

TEST_CASE("jinja: strings have UTF-16 lengths and JS whitespace", "[jinja]") {
  REQUIRE(utf16_length("héllo") == 5);
  REQUIRE(utf16_length("😀") == 2);
  REQUIRE(*utf16_at("héllo", 1) == "é");
  REQUIRE(*utf16_at("héllo", -1) == "o");
  REQUIRE(*utf16_at("a😀", 1) == "\uFFFD");  // half of a surrogate pair
  REQUIRE_FALSE(utf16_at("abc", 3).has_value());
  REQUIRE(js_trim("\u00a0\u3000\ufeff x \u2028\t") == "x");
  REQUIRE(js_trim("\u200bx") == "\u200bx");
  REQUIRE(js_trim_start("  a ") == "a ");
  REQUIRE(js_trim_end("  a ") == "  a");
  REQUIRE(code_point_count("a😀é") == 3);
}

TEST_CASE("jinja: case mappings are Unicode's full ones", "[jinja]") {
  REQUIRE(js_to_upper("straße ǆ ﬁ") == "STRASSE Ǆ FI");
  REQUIRE(js_to_lower("ΣΑΣ ΑΣ") == "σας ας");
  REQUIRE(js_to_lower("İ") == "i\u0307");
  REQUIRE(js_title("hELLO wORLD_x 2nd é-a") == "HELLO WORLD_x 2nd é-A");
  REQUIRE(js_capitalize("ßa") == "SSa");
  REQUIRE(js_capitalize("𐐨x") == "𐐨x");  // outside the BMP: charAt(0) is half a pair
}

TEST_CASE("jinja: strings order by UTF-16 code units", "[jinja]") {
  REQUIRE(js_compare("a", "b") < 0);
  REQUIRE(js_compare("ab", "a") > 0);
  REQUIRE(js_compare("B", "a") < 0);
  // U+FF21 sorts after U+1F600 in code points but before it in UTF-16 (surrogates are lower).
  REQUIRE(js_compare("\U0001F600", "\uFF21") < 0);
  REQUIRE(js_compare("é", "é") == 0);
}

TEST_CASE("jinja: preprocessing keeps each byte's source offset", "[jinja]") {
  const MappedText text = preprocess("a\n  {% x %}\nb\n");
  REQUIRE(text.text == "a\n{% x %}b");
  REQUIRE(text.origin.size() == text.text.size() + 1);
  REQUIRE(text.origin[2] == 4);   // '{' was at offset 4, after the two stripped blanks
  REQUIRE(text.origin[9] == 12);  // 'b', after the dropped newline
}
