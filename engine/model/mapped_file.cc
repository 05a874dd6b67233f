#include "engine/model/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/io/input_file.h"
#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

// Opens `path` for reading, refusing what is not a regular file (a FIFO would block).
int open_readable(const std::string& path, uint64_t* size) {
  try {
    return open_regular_file(path, size);
  } catch (const InputFileError& e) {
    throw ModelLoadError(path, e.problem());
  }
}

}  // namespace

std::shared_ptr<const MappedFile> MappedFile::open(const std::string& path) {
  uint64_t size = 0;
  const int fd = open_readable(path, &size);
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
  try {
    return read_regular_file(path, kMaxModelTextFileBytes);
  } catch (const InputFileError& e) {
    throw ModelLoadError(path, e.problem());
  }
}

}  // namespace infergate
