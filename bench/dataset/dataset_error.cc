#include "bench/dataset/dataset_error.h"

namespace infergate {

namespace {

std::string message(const std::string& file, int line, const std::string& problem) {
  std::string m = file;
  if (line > 0) m.append(":").append(std::to_string(line));
  return m.append(": ").append(problem);
}

}  // namespace

DatasetError::DatasetError(const std::string& file, int line, const std::string& problem)
    : std::runtime_error(message(file, line, problem)), file_(file), line_(line) {}

}  // namespace infergate
