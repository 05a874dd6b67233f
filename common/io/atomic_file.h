// A file written under a temporary sibling name and renamed into place on commit(), so a crash
// or error never leaves a half-written model where a loader would find it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace infergate {

class AtomicFile {
 public:
  // Creates "<path>.tmp-<pid>-XXXXXX" next to `path`, after removing the folder's stale
  // temporaries (below); throws std::runtime_error naming `path` when it is a directory or
  // another non-regular file, or when the temporary file cannot be created.
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

// A temporary of `path` is stale when its writer is gone: the pid in its name is no process
// (a writer killed with SIGKILL cannot clean up), or it has not been written for this long
// (a pid since reused, or a name without a pid from an older infergate).
inline constexpr int64_t kStaleTemporarySeconds = 3600;

// Another output's temporary whose writer's pid is gone is removed only once it has also not
// been written for this long (its writer may be alive in another pid namespace).
inline constexpr int64_t kIdleOtherTemporarySeconds = 600;

// Removes the stale temporaries in `path`'s folder: this output's "<path>.tmp-<pid>-XXXXXX" and
// older "<path>.tmp-XXXXXX", and every other output's "<name>.tmp-<pid>-XXXXXX" idle for
// kIdleOtherTemporarySeconds (each run writes a new name into out/, so a killed run's temporary
// would never meet its own name again); only stale ones, never this process's. Returns how
// many were removed.
int remove_stale_temporaries(const std::string& path);

}  // namespace infergate
