// A whole file mapped read-only into memory. Loaded tensors borrow their bytes from it and keep
// it alive through their owner pointer, so a multi-GB checkpoint costs no copy and no heap.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kernels/tensor.h"

namespace infergate {

class MappedFile {
 public:
  // Throws ModelLoadError ("no such file", "is a directory, expected a regular file", "is a
  // named pipe (FIFO), ...") naming `path`; only regular files are opened.
  static std::shared_ptr<const MappedFile> open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  const uint8_t* data() const { return data_; }
  uint64_t size() const { return size_; }

 private:
  MappedFile(std::string path, const uint8_t* data, uint64_t size)
      : path_(std::move(path)), data_(data), size_(size) {}

  std::string path_;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
};

// A tensor over the bytes at `offset` of `file` (the caller has checked they lie inside it).
// Borrowed, zero copy, when the address suits the dtype's alignment; copied otherwise.
Tensor map_tensor(const std::shared_ptr<const MappedFile>& file, uint64_t offset, DType dtype,
                  std::vector<int64_t> shape);

// Reads a whole small file such as config.json, refusing one over kMaxModelTextFileBytes
// (16 MiB, common/io/input_file.h); throws ModelLoadError like open().
std::string read_text_file(const std::string& path);

}  // namespace infergate
