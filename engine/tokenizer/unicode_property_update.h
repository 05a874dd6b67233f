// Debian's PCRE2 (10.42) classes characters by Unicode 14; Hugging Face's tokenizers and ICU
// (72) by Unicode 15, whose new characters (emoji such as U+1F6DC, CJK Extension H, Kawi)
// PCRE2 takes for unassigned, so ` ?[\p{P}\p{S}]+` split them differently. A pattern's \p{X}
// is therefore extended with what ICU puts in X that PCRE2's Unicode version had not assigned.
#pragma once

#include <string>

namespace infergate {

// `pattern` with every \p{Name} (outside or inside a class) also matching the characters ICU
// classes as Name and PCRE2's tables do not know yet. Unchanged when the versions agree or
// ICU does not know Name.
std::string with_icu_unicode_properties(const std::string& pattern);

}  // namespace infergate
