// What the router knows of a prompt's prefix: one hash per full block, each covering its block
// and every block before it (a chain), so two prompts share their first k hashes exactly when
// they share their first k blocks. Token blocks when the router tokenizes the prompt (with the
// replicas' KV block size, a hash stands for one KV block); fixed-size chunks of the text's
// bytes for backends it cannot tokenize for. A partial last block is left out: engines cache
// full blocks only.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace infergate {

// Throws std::invalid_argument for block_size < 1.
std::vector<uint64_t> token_prefix_hashes(std::span<const int32_t> tokens, int block_size);
std::vector<uint64_t> text_prefix_hashes(std::string_view text, int chunk_bytes);

}  // namespace infergate
