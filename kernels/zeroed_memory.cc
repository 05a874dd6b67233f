#include "kernels/zeroed_memory.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14; older kernels answer EINVAL and we touch the pages
#endif

namespace infergate {

namespace {

constexpr size_t kPage = 4096;
constexpr size_t kHugePage = size_t(2) << 20;
// Below a huge page, malloc's own pools are as quick and waste no partial page.
constexpr size_t kMapThreshold = kHugePage;

// A 2 MiB-aligned mapping, so that every whole 2 MiB of it can be one huge page.
void* map_aligned(size_t bytes) {
  const size_t padded = bytes + kHugePage;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const uintptr_t start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePage - 1) / kHugePage * kHugePage;
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t end = aligned + bytes, raw_end = start + padded;
  if (raw_end > end) munmap(reinterpret_cast<void*>(end), raw_end - end);
  return reinterpret_cast<void*>(aligned);
}

std::shared_ptr<void> map_zeroed(size_t bytes) {
  bytes = (bytes + kPage - 1) / kPage * kPage;
  void* p = map_aligned(bytes);
  // Transparent huge pages where the system allows them on request: 512 times fewer faults and
  // TLB entries. Refused (THP "never", or no THP at all) is fine: 4 KiB pages then.
  madvise(p, bytes, MADV_HUGEPAGE);
  if (madvise(p, bytes, MADV_POPULATE_WRITE) != 0) {
    if (errno == ENOMEM || errno == EFAULT) {  // not enough memory: refuse now, never OOM later
      munmap(p, bytes);
      throw std::bad_alloc();
    }
    // An older kernel, or qemu-user (EINVAL): fault every page by writing it, as memset would.
    volatile char* c = static_cast<char*>(p);
    for (size_t i = 0; i < bytes; i += kPage) c[i] = 0;
  }
  return std::shared_ptr<void>(p, [bytes](void* q) { munmap(q, bytes); });
}

}  // namespace

std::shared_ptr<void> allocate_zeroed(size_t bytes) {
  if (bytes >= kMapThreshold) return map_zeroed(bytes);
  const size_t rounded = bytes == 0 ? 64 : (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded);
  if (!p) throw std::bad_alloc();
  std::memset(p, 0, rounded);
  return std::shared_ptr<void>(p, [](void* q) { std::free(q); });
}

}  // namespace infergate
