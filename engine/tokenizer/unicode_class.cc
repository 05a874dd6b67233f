#include "engine/tokenizer/unicode_class.h"

#include <iterator>

namespace infergate {

namespace {

struct Range {
  uint32_t first;
  uint32_t last;
};

// \s as llama.cpp's unicode tables have it (White_Space).
constexpr Range kWhitespace[] = {
    {0x09, 0x0D},     {0x20, 0x20},     {0x85, 0x85},     {0xA0, 0xA0},     {0x1680, 0x1680},
    {0x2000, 0x200A}, {0x2028, 0x2029}, {0x202F, 0x202F}, {0x205F, 0x205F}, {0x3000, 0x3000}};

// \p{N} beyond ASCII: Latin-1 superscripts and fractions, then decimal digits of the scripts
// below, Roman numerals, circled numbers and fullwidth digits.
constexpr Range kNumbers[] = {
    {0xB2, 0xB3},     {0xB9, 0xB9},     {0xBC, 0xBE},     {0x660, 0x669},   {0x6F0, 0x6F9},
    {0x966, 0x96F},   {0xE50, 0xE59},   {0x2070, 0x2070}, {0x2074, 0x2079}, {0x2080, 0x2089},
    {0x2150, 0x2189}, {0x2460, 0x249B}, {0x3007, 0x3007}, {0x3021, 0x3029}, {0xFF10, 0xFF19},
};

// \p{L} beyond ASCII (Latin-1 is handled in code). Ranges are whole blocks, minus their
// obvious punctuation, so a few unassigned code points count as letters.
constexpr Range kLetters[] = {
    {0x100, 0x2C1},   {0x2C6, 0x2D1},   {0x2E0, 0x2E4},   {0x370, 0x373},   {0x376, 0x377},
    {0x37B, 0x37D},   {0x386, 0x386},   {0x388, 0x3F5},   {0x3F7, 0x481},   {0x48A, 0x52F},
    {0x531, 0x556},   {0x561, 0x587},   {0x5D0, 0x5EA},   {0x620, 0x64A},   {0x671, 0x6D3},
    {0x904, 0x939},   {0x958, 0x961},   {0xE01, 0xE30},   {0xE40, 0xE46},   {0x10A0, 0x10FF},
    {0x1E00, 0x1FFF}, {0x3041, 0x3096}, {0x309D, 0x309F}, {0x30A1, 0x30FA}, {0x30FC, 0x30FF},
    {0x3105, 0x312F}, {0x3131, 0x318E}, {0x3400, 0x4DBF}, {0x4E00, 0x9FFF}, {0xAC00, 0xD7A3},
    {0xF900, 0xFAFF}, {0xFF21, 0xFF3A}, {0xFF41, 0xFF5A}, {0xFF66, 0xFFDC}, {0x20000, 0x2FA1F},
};

template <size_t N>
bool in(const Range (&ranges)[N], uint32_t cp) {
  for (const Range& r : ranges) {
    if (cp >= r.first && cp <= r.last) return true;
  }
  return false;
}

}  // namespace

UnicodeClass unicode_class(uint32_t cp) {
  if (cp < 0x80) {
    if ((cp | 0x20) >= 'a' && (cp | 0x20) <= 'z') return UnicodeClass::kLetter;
    if (cp >= '0' && cp <= '9') return UnicodeClass::kNumber;
    if (cp == ' ' || (cp >= 0x09 && cp <= 0x0D)) return UnicodeClass::kWhitespace;
    return UnicodeClass::kOther;
  }
  if (in(kWhitespace, cp)) return UnicodeClass::kWhitespace;
  if (in(kNumbers, cp)) return UnicodeClass::kNumber;
  // Latin-1: ª µ º and the accented letters, but not × and ÷.
  if (cp < 0x100) {
    const bool letter =
        cp == 0xAA || cp == 0xB5 || cp == 0xBA || (cp >= 0xC0 && cp != 0xD7 && cp != 0xF7);
    return letter ? UnicodeClass::kLetter : UnicodeClass::kOther;
  }
  return in(kLetters, cp) ? UnicodeClass::kLetter : UnicodeClass::kOther;
}

}  // namespace infergate
