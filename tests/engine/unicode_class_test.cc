// The GPT-2 pre-tokenizer's character classes against Unicode's general categories, as the
// GPT-2 regex and llama.cpp define them (\p{L}: L*, \p{N}: N*, \s: White_Space). The expected
// classes are the Unicode Character Database's (checked with Python's unicodedata).
#include "engine/tokenizer/unicode_class.h"

#include <catch2/catch.hpp>
#include <cstdint>

using namespace infergate;

namespace {

constexpr UnicodeClass kLetter = UnicodeClass::kLetter;
constexpr UnicodeClass kNumber = UnicodeClass::kNumber;
constexpr UnicodeClass kWhitespace = UnicodeClass::kWhitespace;
constexpr UnicodeClass kOther = UnicodeClass::kOther;

}  // namespace

TEST_CASE("unicode class counts unassigned code points as other, not letters", "[tokenizer]") {
  // Inside blocks of letters: Greek Extended (U+1F16), between CJK extensions B and C
  // (U+2A6E0); and a gap in Greek (U+0378).
  for (const uint32_t cp : {0x1F16u, 0x2A6E0u, 0x0378u, 0xFFDDu}) {
    INFO(std::hex << cp);
    REQUIRE(unicode_class(cp) == kOther);
  }
  // Surrogates and values past the last code point are not characters either.
  REQUIRE(unicode_class(0xD800) == kOther);
  REQUIRE(unicode_class(0x110000) == kOther);
  REQUIRE(unicode_class(0xFFFFFFFF) == kOther);
}

TEST_CASE("unicode class knows letters and numbers of every script", "[tokenizer]") {
  // Ethiopic, Tamil, Cherokee (Lu), Khmer, Yi, Deseret (Lu), Arabic past U+06D3.
  for (const uint32_t cp : {0x1200u, 0x0B85u, 0x13A0u, 0x1780u, 0xA000u, 0x10400u, 0x06FAu}) {
    INFO(std::hex << cp);
    REQUIRE(unicode_class(cp) == kLetter);
  }
  // Bengali, Tamil, Khmer and Mongolian digits (Nd), Ethiopic digit one (No), mathematical
  // bold zero (Nd).
  for (const uint32_t cp : {0x09E6u, 0x0BE7u, 0x17E0u, 0x1810u, 0x1369u, 0x1D7CEu}) {
    INFO(std::hex << cp);
    REQUIRE(unicode_class(cp) == kNumber);
  }
  // A combining mark (Thai Mn) and an emoji (So) are neither.
  REQUIRE(unicode_class(0x0E31) == kOther);
  REQUIRE(unicode_class(0x1F600) == kOther);
}

TEST_CASE("unicode class keeps ASCII, Latin-1 and White_Space as before", "[tokenizer]") {
  REQUIRE(unicode_class('a') == kLetter);
  REQUIRE(unicode_class('Z') == kLetter);
  REQUIRE(unicode_class('7') == kNumber);
  REQUIRE(unicode_class('_') == kOther);
  REQUIRE(unicode_class('\'') == kOther);
  // ª µ º are letters, × ÷ are not; ² and ½ are numbers.
  for (const uint32_t cp : {0xAAu, 0xB5u, 0xBAu, 0xC0u, 0xFFu})
    REQUIRE(unicode_class(cp) == kLetter);
  REQUIRE(unicode_class(0xD7) == kOther);
  REQUIRE(unicode_class(0xF7) == kOther);
  REQUIRE(unicode_class(0xB2) == kNumber);
  REQUIRE(unicode_class(0xBD) == kNumber);
  // White_Space, as llama.cpp's tables have it; U+200B (zero width space) is not.
  for (const uint32_t cp : {0x09u, 0x0Au, 0x0Du, 0x20u, 0x85u, 0xA0u, 0x1680u, 0x2000u, 0x200Au,
                            0x2028u, 0x2029u, 0x202Fu, 0x205Fu, 0x3000u}) {
    INFO(std::hex << cp);
    REQUIRE(unicode_class(cp) == kWhitespace);
  }
  REQUIRE(unicode_class(0x200B) == kOther);
}
