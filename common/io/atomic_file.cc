#include "common/io/atomic_file.h"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

namespace infergate {

namespace {

namespace fs = std::filesystem;

constexpr size_t kRandomChars = 6;  // mkstemp's XXXXXX

bool all_digits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

bool all_alnum(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  });
}

// The writer's pid from the part after "<name>.tmp-": 0 for a name without one (older
// infergate), -1 for a name that is not one of our temporaries.
long temporary_writer(std::string_view tail) {
  if (tail.size() == kRandomChars) return all_alnum(tail) ? 0 : -1;
  if (tail.size() < kRandomChars + 2 || tail[tail.size() - kRandomChars - 1] != '-') return -1;
  const std::string_view pid = tail.substr(0, tail.size() - kRandomChars - 1);
  if (!all_digits(pid) || pid.size() > 9 || !all_alnum(tail.substr(pid.size() + 1))) {
    return -1;
  }
  return std::strtol(std::string(pid).c_str(), nullptr, 10);
}

// Seconds since a regular file was last written; -1 for anything else.
int64_t idle_seconds(const std::string& file) {
  struct stat st {};
  if (::lstat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return -1;
  return int64_t(std::time(nullptr) - st.st_mtime);
}

bool is_stale(const std::string& temp, long pid) {
  if (pid > 0 && ::kill(pid_t(pid), 0) != 0 && errno == ESRCH) return idle_seconds(temp) >= 0;
  return idle_seconds(temp) > kStaleTemporarySeconds;
}

// The destination may be missing or a regular file; anything else would be replaced by the
// rename (a device, a FIFO) or refuse it only after all the work (a directory).
void check_destination(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 || S_ISREG(st.st_mode)) return;
  const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                     : S_ISFIFO(st.st_mode) ? "a named pipe (FIFO)"
                     : S_ISCHR(st.st_mode)  ? "a character device"
                                            : "not a regular file";
  throw std::runtime_error(path + ": cannot write an output file here: it is " + kind);
}

}  // namespace

int remove_stale_temporaries(const std::string& path) {
  const fs::path p(path);
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  const std::string own = p.filename().string() + ".tmp-";
  std::error_code ec;
  int removed = 0;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    const size_t at = name.rfind(".tmp-");
    if (at == std::string::npos || at == 0) continue;
    const long pid = temporary_writer(std::string_view(name).substr(at + 5));
    // Any output's temporary carrying a writer's pid (out/ holds a new name every run, so its
    // own name alone would never be written again); the older pid-less form only for this
    // name, where nothing but our own writes of `path` could have made it.
    const bool same_output = name.compare(0, own.size(), own) == 0;
    const bool ours =
        pid > 0 || (pid == 0 && same_output && name.size() == own.size() + kRandomChars);
    if (!ours || pid == long(::getpid())) continue;
    const std::string temp = it->path().string();
    // Another output's writer may live in another pid namespace (a container sharing the
    // folder), where its pid reads as gone: its temporary must also have been idle a while.
    if (!same_output && idle_seconds(temp) < kIdleOtherTemporarySeconds) continue;
    if (is_stale(temp, pid) && ::unlink(temp.c_str()) == 0) ++removed;
  }
  return removed;
}

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  check_destination(path_);
  remove_stale_temporaries(path_);
  std::vector<char> name(path_.begin(), path_.end());
  const std::string suffix = ".tmp-" + std::to_string(::getpid()) + "-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) fail("cannot create a temporary file beside it");
  temp_path_ = name.data();
  ::fchmod(fd_, 0644);  // mkstemp's 0600 would hide the model from other users
}

AtomicFile::~AtomicFile() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temp_path_.empty()) ::unlink(temp_path_.c_str());
}

void AtomicFile::fail(const std::string& what) const {
  throw std::runtime_error(path_ + ": " + what + ": " + std::strerror(errno));
}

void AtomicFile::write(const void* data, size_t n) {
  const char* p = static_cast<const char*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("write failed");
    p += w;
    n -= size_t(w);
    position_ += uint64_t(w);
  }
}

void AtomicFile::write_zeros(size_t n) {
  static const char kZeros[4096] = {};
  while (n > 0) {
    const size_t c = std::min(n, sizeof(kZeros));
    write(kZeros, c);
    n -= c;
  }
}

void AtomicFile::commit() {
  if (::fsync(fd_) != 0) fail("fsync failed");
  if (::close(fd_) != 0) {
    fd_ = -1;
    fail("close failed");
  }
  fd_ = -1;
  if (std::rename(temp_path_.c_str(), path_.c_str()) != 0) fail("rename failed");
  committed_ = true;
}

}  // namespace infergate
