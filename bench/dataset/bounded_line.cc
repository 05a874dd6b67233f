#include "bench/dataset/bounded_line.h"

#include "bench/dataset/dataset_error.h"

namespace infergate {

bool read_bounded_line(std::istream& in, std::string& line, size_t max_bytes,
                       const std::string& file, int line_number, const char* what) {
  line.clear();
  for (int c; (c = in.get()) != std::char_traits<char>::eof();) {
    if (c == '\n') return true;
    if (line.size() >= max_bytes) {
      throw DatasetError(
          file, line_number,
          "line longer than " + std::to_string(max_bytes) + " bytes (the limit per " + what + ")");
    }
    line.push_back(char(c));
  }
  return !line.empty();
}

bool blank_line(const std::string& line) {
  return line.find_first_not_of(" \t\r") == std::string::npos;
}

}  // namespace infergate
