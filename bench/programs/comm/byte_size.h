// Byte counts as people write them on a command line: "8", "4K", "64M", "1G" (binary
// multiples, as nccl-tests' -b/-e), and back.
#pragma once

#include <cstddef>
#include <string>

namespace infergate {

// Throws std::invalid_argument naming `option` and the accepted forms.
size_t parse_byte_size(const std::string& text, const std::string& option);
// "64M" when exact in a binary unit, else the plain number.
std::string format_byte_size(size_t bytes);

}  // namespace infergate
