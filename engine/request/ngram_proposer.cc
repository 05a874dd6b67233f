#include "engine/request/ngram_proposer.h"

#include <algorithm>
#include <stdexcept>

namespace infergate {

std::vector<int32_t> propose_ngram(std::span<const int32_t> tokens, int min_n, int max_n,
                                   int count) {
  if (min_n < 1 || max_n < min_n) throw std::invalid_argument("propose_ngram: bad n range");
  const int64_t len = int64_t(tokens.size());
  if (count <= 0) return {};
  for (int64_t n = std::min<int64_t>(max_n, len - 1); n >= min_n; --n) {
    const auto suffix = tokens.subspan(size_t(len - n));
    // The latest earlier occurrence: the match ends at `end` (exclusive) < len.
    for (int64_t end = len - 1; end >= n; --end) {
      if (!std::equal(suffix.begin(), suffix.end(), tokens.begin() + (end - n))) continue;
      // What followed the match, continued with period len - end past the end: a loop the
      // output has fallen into is proposed whole, not only up to the current token.
      std::vector<int32_t> proposal;
      for (int64_t src = end; int(proposal.size()) < count; ++src) {
        proposal.push_back(src < len ? tokens[size_t(src)] : proposal[size_t(src - len)]);
      }
      return proposal;
    }
  }
  return {};
}

}  // namespace infergate
