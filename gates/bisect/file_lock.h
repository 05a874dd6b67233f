// An exclusive advisory lock on a file (flock), held for the object's lifetime, so that two
// bisects sharing a cache never build or measure the same commit at once.
#pragma once

#include <string>

namespace infergate {

class FileLock {
 public:
  // Creates `path` if needed and waits for the lock; throws std::runtime_error naming `path`.
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;

 private:
  int fd_ = -1;
};

}  // namespace infergate
