// What the router reads of a completion or chat request before forwarding its body unchanged:
// whether it streams, and its prompt's prefix hashes for the policy
// (router/policy/prefix_hashes.h). Text prompts (a completion's string, a chat's messages) are
// hashed by bytes; a completion's token-id prompt by tokens. Everything else is the replica's to
// check.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace infergate {

struct RoutedRequest {
  bool stream = false;
  int choices = 1;  // `n` (the replica checks it; a stream of several is never migrated)
  std::vector<uint64_t> prefix;
};

// Throws ApiError(400) when the body is not a JSON object.
RoutedRequest read_routed_request(std::string_view body, bool chat, int chunk_bytes,
                                  int token_block_size);

}  // namespace infergate
