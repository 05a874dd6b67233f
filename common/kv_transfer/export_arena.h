// Where a prefill worker's exports live: one anonymous mapping, registered with UCX once, that
// exports are carved from and returned to. It is never unmapped while the transport lives, so a
// decode worker's late read of a dropped export reads zeros or another export's bytes (which
// the canary rejects), never unmapped memory: UCX serves emulated reads (shared-memory and TCP
// messages) by copying from the address it is given, in the prefill worker's own process.
// Not thread-safe: the transport holds its lock around it.
#pragma once

#include <cstddef>
#include <map>
#include <optional>

namespace infergate {

class ExportArena {
 public:
  // Reserves `bytes` (rounded up to whole pages) of address space; pages take memory only once
  // written. Throws std::runtime_error when the mapping fails.
  explicit ExportArena(size_t bytes);
  ~ExportArena();
  ExportArena(const ExportArena&) = delete;
  ExportArena& operator=(const ExportArena&) = delete;

  std::byte* base() const { return base_; }
  size_t size() const { return size_; }

  // A page-aligned range of at least `bytes` (first fit), or nullopt when none is free.
  // Returns its offset; its length is rounded(bytes).
  std::optional<size_t> allocate(size_t bytes);
  // Gives a range back: its pages return to the system (they read as zeros from now on).
  void release(size_t offset, size_t bytes);
  static size_t rounded(size_t bytes);

 private:
  std::byte* base_ = nullptr;
  size_t size_ = 0;
  std::map<size_t, size_t> free_;  // offset -> length, coalesced
};

}  // namespace infergate
