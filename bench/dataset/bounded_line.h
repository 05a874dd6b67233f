// One line of a dataset file, refused before it is read whole when it is longer than a limit,
// so a file without line ends (or a huge one) costs at most that much memory.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace infergate {

// std::getline into `line` (without the '\n'); false at the end of the input with nothing read.
// Throws DatasetError("FILE:LINE: line longer than MAX bytes (the limit per WHAT)").
bool read_bounded_line(std::istream& in, std::string& line, size_t max_bytes,
                       const std::string& file, int line_number, const char* what);

// Only spaces, tabs and carriage returns.
bool blank_line(const std::string& line);

}  // namespace infergate
