#include "engine/tokenizer/unicode_class.h"

#include <unicode/uchar.h>

namespace infergate {

UnicodeClass unicode_class(uint32_t cp) {
  // ICU takes a signed UChar32; anything past U+10FFFF is unassigned to it, and so "other".
  if (cp > 0x10FFFF) return UnicodeClass::kOther;
  const auto c = static_cast<UChar32>(cp);
  // White_Space first: no White_Space character is a letter or a number, so the order only
  // spares the category lookup for the commonest separators.
  if (u_isUWhiteSpace(c)) return UnicodeClass::kWhitespace;
  const uint32_t mask = U_GET_GC_MASK(c);
  if ((mask & U_GC_L_MASK) != 0) return UnicodeClass::kLetter;
  if ((mask & U_GC_N_MASK) != 0) return UnicodeClass::kNumber;
  return UnicodeClass::kOther;
}

}  // namespace infergate
