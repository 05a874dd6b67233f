// A model's vocabulary as a byte trie: the tokens a grammar state allows are found by walking
// it with the state, cutting every branch the grammar refuses, instead of trying each token.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace infergate {

class TokenTrie {
 public:
  // token_bytes[id]: what the token decodes to. Tokens with no bytes, or whose `usable` entry is
  // false (special and control tokens: a grammar never produces them), are never allowed.
  TokenTrie(std::vector<std::string> token_bytes, const std::vector<bool>& usable);

  struct Node {
    std::vector<std::pair<uint8_t, int32_t>> children;  // (byte, node), sorted by byte
    std::vector<int32_t> tokens;                        // tokens spelled by the path here
  };
  const std::vector<Node>& nodes() const { return nodes_; }  // nodes()[0] is the root
  int32_t vocab_size() const { return int32_t(bytes_.size()); }
  const std::string& bytes(int32_t token) const { return bytes_[size_t(token)]; }

 private:
  std::vector<std::string> bytes_;
  std::vector<Node> nodes_;
};

}  // namespace infergate
