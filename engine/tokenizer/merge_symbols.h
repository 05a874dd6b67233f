// The working state both merge-based tokenizers (SPM, BPE) share: the text as a doubly linked
// list of runs, starting one run per UTF-8 character, merged pairwise into longer pieces.
#pragma once

#include <string_view>
#include <vector>

namespace infergate {

struct MergeSymbol {
  size_t offset;
  size_t size;  // 0 once merged into its left neighbour
  int prev;
  int next;  // -1 at either end
};

// One symbol per UTF-8 character of `text` (a truncated sequence at the end is one symbol).
std::vector<MergeSymbol> utf8_symbols(std::string_view text);
// Appends symbol `left`'s right neighbour to it and unlinks that neighbour.
void merge_with_next(std::vector<MergeSymbol>& symbols, int left);

}  // namespace infergate
