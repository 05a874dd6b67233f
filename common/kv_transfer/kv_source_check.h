// A decode worker's checks of a KvSource before and after reading it (docs/disaggregation.md,
// "Trust"). Before: the prefill worker's signature, the geometry, the export's range inside the
// signed arena and the token ids its blocks hold, all before UCX sees the worker address,
// remote key or address; a refused source makes the worker compute the prompt itself. After:
// each block read must match the checksum the prefill worker signed, so a wrong or partial read
// is never adopted into the prefix cache.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "common/kv_transfer/kv_source.h"

namespace infergate {

struct KvSourceExpectation {
  std::string_view secret;          // shared with the prefill workers; empty: nothing is trusted
  uint64_t block_nbytes = 0;        // this worker's KV block
  int block_tokens = 0;             // this worker's block size
  std::span<const int32_t> prompt;  // the request's, whose prefix the blocks would become
};

// Why `source` must not be read for `expected`, or "" when it may be.
std::string kv_source_refusal(const KvSource& source, const KvSourceExpectation& expected);

// Why the export's blocks and canary word are not all inside the arena the source names, or "".
// Part of kv_source_refusal; the transport checks it again before every read.
std::string kv_source_range_refusal(const KvSource& source);

// Why `bytes`, read as blocks [first, first + count) of `source`, are not what the prefill
// worker exported, or "" when they are.
std::string kv_read_refusal(const KvSource& source, int first, int count,
                            std::span<const std::byte> bytes);

}  // namespace infergate
