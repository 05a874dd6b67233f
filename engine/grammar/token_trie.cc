#include "engine/grammar/token_trie.h"

#include <algorithm>

namespace infergate {

TokenTrie::TokenTrie(std::vector<std::string> token_bytes, const std::vector<bool>& usable)
    : bytes_(std::move(token_bytes)), nodes_(1) {
  for (size_t id = 0; id < bytes_.size(); ++id) {
    if (bytes_[id].empty() || (id < usable.size() && !usable[id])) continue;
    int32_t node = 0;
    for (char c : bytes_[id]) {
      const uint8_t b = static_cast<uint8_t>(c);
      auto& children = nodes_[size_t(node)].children;
      const auto it = std::lower_bound(children.begin(), children.end(), std::make_pair(b, 0));
      if (it != children.end() && it->first == b) {
        node = it->second;
        continue;
      }
      const int32_t added = int32_t(nodes_.size());
      children.insert(it, {b, added});  // `children` is not used after nodes_ grows
      nodes_.emplace_back();
      node = added;
    }
    nodes_[size_t(node)].tokens.push_back(int32_t(id));
  }
}

}  // namespace infergate
