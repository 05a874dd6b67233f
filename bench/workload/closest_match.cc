#include "bench/workload/closest_match.h"

#include <algorithm>
#include <numeric>

namespace infergate {

size_t edit_distance(const std::string& a, const std::string& b) {
  // One row of the dynamic-programming table at a time.
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t above = row[j];
      const size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
      row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  const size_t limit = std::max<size_t>(2, word.size() / 3);
  std::string best;
  size_t best_distance = std::string::npos;
  for (const std::string& candidate : candidates) {
    const size_t d = edit_distance(word, candidate);
    // A truncated name ("ttft" for "ttft_ms") is a plausible slip however much is missing.
    const bool truncated = word.size() >= 3 && candidate.starts_with(word);
    if ((d <= limit || truncated) && d < best_distance) best = candidate, best_distance = d;
  }
  return best;
}

}  // namespace infergate
