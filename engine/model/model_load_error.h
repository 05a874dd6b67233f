// The one error type every model loader throws for a bad input (missing, truncated or corrupt
// file, unsupported format feature). The message always starts with the file it is about.
#pragma once

#include <stdexcept>
#include <string>

namespace infergate {

class ModelLoadError : public std::runtime_error {
 public:
  // `file` names the offending file (or source); `problem` says what is wrong with it.
  ModelLoadError(const std::string& file, const std::string& problem)
      : std::runtime_error(file + ": " + problem), file_(file) {}

  const std::string& file() const { return file_; }

 private:
  std::string file_;
};

}  // namespace infergate
