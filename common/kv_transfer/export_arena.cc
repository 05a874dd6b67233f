#include "common/kv_transfer/export_arena.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

size_t page_size() {
  static const size_t page = size_t(::sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

size_t ExportArena::rounded(size_t bytes) {
  const size_t page = page_size();
  return (std::max<size_t>(bytes, 1) + page - 1) / page * page;
}

ExportArena::ExportArena(size_t bytes) : size_(rounded(bytes)) {
  void* p = ::mmap(nullptr, size_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    throw std::runtime_error("cannot reserve " + std::to_string(size_) +
                             " bytes for KV exports: " + std::strerror(errno));
  }
  base_ = static_cast<std::byte*>(p);
  free_[0] = size_;
}

ExportArena::~ExportArena() { ::munmap(base_, size_); }

std::optional<size_t> ExportArena::allocate(size_t bytes) {
  const size_t need = rounded(bytes);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < need) continue;
    const size_t offset = it->first, left = it->second - need;
    free_.erase(it);
    if (left > 0) free_[offset + need] = left;
    return offset;
  }
  return std::nullopt;
}

void ExportArena::release(size_t offset, size_t bytes) {
  const size_t length = rounded(bytes);
  ::madvise(base_ + offset, length, MADV_DONTNEED);  // the memory goes, the mapping stays
  auto [it, inserted] = free_.emplace(offset, length);
  if (auto next = std::next(it); next != free_.end() && offset + length == next->first) {
    it->second += next->second;
    free_.erase(next);
  }
  if (it != free_.begin()) {
    auto prev = std::prev(it);
    if (prev->first + prev->second == it->first) {
      prev->second += it->second;
      free_.erase(it);
    }
  }
}

}  // namespace infergate
