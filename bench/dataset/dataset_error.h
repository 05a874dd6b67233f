// A dataset file the harness refuses: what() is "FILE:LINE: PROBLEM" (or "FILE: PROBLEM" when
// the problem is the file as a whole), so editors and CI logs can jump to the record.
#pragma once

#include <stdexcept>
#include <string>

namespace infergate {

class DatasetError : public std::runtime_error {
 public:
  // line is 1-based; 0 means the whole file.
  DatasetError(const std::string& file, int line, const std::string& problem);

  const std::string& file() const { return file_; }
  int line() const { return line_; }

 private:
  std::string file_;
  int line_;
};

}  // namespace infergate
