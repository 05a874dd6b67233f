// A file written under a temporary sibling name and renamed into place on commit(), so a crash
// or error never leaves a half-written model where a loader would find it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace infergate {

class AtomicFile {
 public:
  // Creates "<path>.tmp-XXXXXX" next to `path`; throws std::runtime_error naming `path`.
  explicit AtomicFile(std::string path);
  // Removes the temporary file unless commit() succeeded.
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  void write(const void* data, size_t n);
  void write(const std::string& s) { write(s.data(), s.size()); }
  void write_zeros(size_t n);
  uint64_t position() const { return position_; }
  // Flushes to disk and renames over `path`.
  void commit();

 private:
  [[noreturn]] void fail(const std::string& what) const;

  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  uint64_t position_ = 0;
  bool committed_ = false;
};

}  // namespace infergate
