#include "common/io/input_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace infergate {

namespace {

std::string kind_of(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a named pipe (FIFO)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (!S_ISREG(mode)) return "a special file";
  return "";
}

[[noreturn]] void refuse_kind(const std::string& path, const std::string& kind) {
  throw InputFileError(path, "is " + kind + ", expected a regular file");
}

// The reason open() failed, in the words a user can act on.
[[noreturn]] void refuse_open(const std::string& path, int err) {
  if (err == ENOENT) throw InputFileError(path, "no such file");
  const std::string kind = non_regular_kind(path);  // a socket fails open() with ENXIO
  if (!kind.empty()) refuse_kind(path, kind);
  throw InputFileError(path, std::string("cannot open: ") + std::strerror(err));
}

std::string mib(uint64_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

std::string non_regular_kind(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return kind_of(st.st_mode);
}

int open_regular_file(const std::string& path, uint64_t* size) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) refuse_open(path, errno);
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    throw InputFileError(path, std::string("cannot stat: ") + std::strerror(err));
  }
  const std::string kind = kind_of(st.st_mode);
  if (!kind.empty()) {
    ::close(fd);
    refuse_kind(path, kind);
  }
  *size = uint64_t(st.st_size);
  return fd;
}

std::string read_regular_file(const std::string& path, uint64_t max_bytes) {
  uint64_t size = 0;
  const int fd = open_regular_file(path, &size);
  const auto too_big = [&] {
    ::close(fd);
    throw InputFileError(path, "is larger than the " + mib(max_bytes) + " (" +
                                   std::to_string(max_bytes) + " bytes) limit for this file");
  };
  if (size > max_bytes) too_big();
  std::string text;
  text.reserve(size_t(size));
  char buf[1 << 16];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof(buf));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int err = errno;
      ::close(fd);
      throw InputFileError(path, std::string("read failed: ") + std::strerror(err));
    }
    if (n == 0) break;
    if (text.size() + size_t(n) > max_bytes) too_big();  // grew since fstat, or a /proc file
    text.append(buf, size_t(n));
  }
  ::close(fd);
  return text;
}

}  // namespace infergate
