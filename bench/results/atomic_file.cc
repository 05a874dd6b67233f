#include "bench/results/atomic_file.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <vector>

namespace infergate {

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
  std::vector<char> name(path_.begin(), path_.end());
  const std::string suffix = ".tmp-XXXXXX";
  name.insert(name.end(), suffix.begin(), suffix.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());
  if (fd_ < 0) fail("cannot create a temporary file");
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
