// Zero-filled, resident, 64-byte-aligned memory for tensors (weights, KV pools, workspaces).
#pragma once

#include <cstddef>
#include <memory>

namespace infergate {

// `bytes` of zeros, every page already faulted in (a measured run never pays first-touch faults
// for a block it reaches late). Large buffers come from the kernel's zero pages in one call
// instead of a memset that faults each 4 KiB page: on a KVM guest that was 2.8 s per GiB against
// 0.05-0.2 s (docs/performance.md, "Allocation"), paid by every engine's 256 MiB KV pool.
// Throws std::bad_alloc when the memory cannot be had.
std::shared_ptr<void> allocate_zeroed(size_t bytes);

}  // namespace infergate
