// Every occurrence of a string replaced, for the normalizers and decoders that rewrite text.
#pragma once

#include <string>

namespace infergate {

// `text` with each non-overlapping `from` (left to right) replaced by `to`; unchanged when
// `from` is empty.
std::string replace_all(const std::string& text, const std::string& from, const std::string& to);

}  // namespace infergate
