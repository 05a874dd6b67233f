// A run of a prompt's KV blocks as bytes, for the prefill/decode handoff: blocks
// [first_block, first_block + num_blocks) of the prompt's full blocks, each block_nbytes long
// and laid end to end (the executor's block layout: every layer's K then V, docs/engine.md).
#pragma once

#include <cstddef>
#include <vector>

namespace infergate {

struct KvBlocks {
  size_t block_nbytes = 0;
  int first_block = 0;
  int num_blocks = 0;
  std::vector<std::byte> bytes;  // num_blocks * block_nbytes
};

}  // namespace infergate
