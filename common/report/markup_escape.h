// Text made safe for HTML, XML and the SVG inside HTML: markup characters become entities and
// characters XML 1.0 forbids become U+FFFD, so a rule name or a path can never break a report.
#pragma once

#include <string>
#include <string_view>

namespace infergate {

// Escapes & < > " ' (safe in element text and in quoted attribute values alike) and replaces
// control characters other than tab, newline and carriage return with U+FFFD.
std::string escape_markup(std::string_view text);

// <td class="cls">escaped text</td> (no class attribute when cls is null).
std::string table_cell(const std::string& text, const char* cls = nullptr);

}  // namespace infergate
