// Opening and reading a file a user named, without trusting it: only regular files are opened
// (a FIFO would block open() forever, /dev/zero never ends), and a whole-file read stops at a
// stated limit instead of allocating whatever the file holds.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace infergate {

// Whole-file read limits (docs/results-schema.md, docs/model-formats.md).
// Results, baselines, rules, noise profiles and bisect state: one JSON document each.
inline constexpr uint64_t kMaxJsonFileBytes = uint64_t(256) << 20;
// A model's small side files: config.json, model.safetensors.index.json.
inline constexpr uint64_t kMaxModelTextFileBytes = uint64_t(16) << 20;
// Workload files.
inline constexpr uint64_t kMaxWorkloadFileBytes = uint64_t(16) << 20;

// A file that cannot be used as an input; what() is "<path>: <problem>".
class InputFileError : public std::runtime_error {
 public:
  InputFileError(const std::string& path, const std::string& problem)
      : std::runtime_error(path + ": " + problem), problem_(problem) {}

  // The problem alone, for callers that rethrow it as their own error type.
  const std::string& problem() const { return problem_; }

 private:
  std::string problem_;
};

// What `path` is when it is not a regular file ("a directory", "a named pipe (FIFO)", ...);
// empty for a regular file and for a path that does not exist.
std::string non_regular_kind(const std::string& path);

// A read-only descriptor of `path`, checked to be a regular file, and its size. Opened with
// O_NONBLOCK and then fstat()ed, so a FIFO is refused without blocking and nothing can swap
// the file between the check and the open. Throws InputFileError: "no such file", "is a
// directory, expected a regular file", "is a named pipe (FIFO), expected a regular file", ...
int open_regular_file(const std::string& path, uint64_t* size);

// The whole content of the regular file `path`, refused (InputFileError naming the limit)
// when it holds more than `max_bytes`; growing files and /proc files are bounded as they read.
std::string read_regular_file(const std::string& path, uint64_t max_bytes);

}  // namespace infergate
