#include "engine/model/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

// Opens `path` for reading, with the reasons a user can fix spelled out.
int open_readable(const std::string& path, struct stat* st) {
  if (::stat(path.c_str(), st) != 0) {
    if (errno == ENOENT) throw ModelLoadError(path, "no such file");
    throw ModelLoadError(path, std::string("cannot stat: ") + std::strerror(errno));
  }
  if (S_ISDIR(st->st_mode)) throw ModelLoadError(path, "is a directory, expected a file");
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ModelLoadError(path, std::string("cannot open: ") + std::strerror(errno));
  return fd;
}

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  struct stat st {};
  const int fd = open_readable(path, &st);
  const uint64_t size = uint64_t(st.st_size);
  void* p = nullptr;
  if (size > 0) {  // mmap of length 0 is an error; an empty file maps to nothing
    p = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      const int err = errno;
      ::close(fd);
      throw ModelLoadError(path, std::string("cannot mmap: ") + std::strerror(err));
    }
  }
  ::close(fd);  // the mapping stays valid without the descriptor
  return std::shared_ptr<const MappedFile>(
      new MappedFile(path, static_cast<const uint8_t*>(p), size));
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

Tensor map_tensor(const std::shared_ptr<const MappedFile>& file, uint64_t offset, DType dtype,
                  std::vector<int64_t> shape) {
  const uint8_t* p = file->data() + offset;
  const size_t align = dtype == DType::kF32 ? 4 : 2;  // f16, bf16 and q8_0 scales are 16-bit
  if (reinterpret_cast<uintptr_t>(p) % align == 0) {
    return Tensor::borrow(dtype, std::move(shape), p, file);
  }
  Tensor t = Tensor::zeros(dtype, std::move(shape));
  std::memcpy(t.mutable_raw(), p, t.nbytes());
  return t;
}

std::string read_text_file(const std::string& path) {
  const std::shared_ptr<const MappedFile> f = MappedFile::open(path);
  return std::string(reinterpret_cast<const char*>(f->data()), size_t(f->size()));
}

}  // namespace infergate
