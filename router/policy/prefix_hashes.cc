#include "router/policy/prefix_hashes.h"

#include <stdexcept>
#include <string>

#include "common/util/fnv1a.h"

namespace infergate {

namespace {

void check_block_size(int size, const char* what) {
  if (size < 1) {
    throw std::invalid_argument(std::string(what) + " must be >= 1, got " + std::to_string(size));
  }
}

// The chain: each block's hash starts from its parent's, so equal hashes mean equal prefixes.
std::vector<uint64_t> chained(std::string_view bytes, size_t block_bytes) {
  std::vector<uint64_t> hashes;
  hashes.reserve(bytes.size() / block_bytes);
  uint64_t parent = kFnv1a64OffsetBasis;
  for (size_t at = 0; at + block_bytes <= bytes.size(); at += block_bytes) {
    parent = fnv1a64(bytes.substr(at, block_bytes), parent);
    hashes.push_back(parent);
  }
  return hashes;
}

}  // namespace

std::vector<uint64_t> token_prefix_hashes(std::span<const int32_t> tokens, int block_size) {
  check_block_size(block_size, "the block size in tokens");
  const std::string_view bytes(reinterpret_cast<const char*>(tokens.data()), tokens.size_bytes());
  return chained(bytes, size_t(block_size) * sizeof(int32_t));
}

std::vector<uint64_t> text_prefix_hashes(std::string_view text, int chunk_bytes) {
  check_block_size(chunk_bytes, "the chunk size in bytes");
  return chained(text, size_t(chunk_bytes));
}

}  // namespace infergate
