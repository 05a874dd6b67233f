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

// The merge loop both tokenizers run: every adjacent pair is offered (`offer(left, right)`
// queues it if the vocabulary knows it), then the queue's bigrams are applied best first. A
// bigram whose symbols changed since it was queued is skipped (an emptied symbol, or `stale`
// for the tokenizer's own check); each merge offers the merged symbol's new neighbours.
template <typename Queue, typename Stale, typename Offer>
void apply_merges(std::vector<MergeSymbol>& symbols, Queue& queue, Stale&& stale, Offer&& offer) {
  for (int i = 1; i < static_cast<int>(symbols.size()); ++i) offer(i - 1, i);
  while (!queue.empty()) {
    const auto b = queue.top();
    queue.pop();
    if (symbols[b.left].size == 0 || symbols[b.right].size == 0 || stale(b)) continue;
    merge_with_next(symbols, b.left);
    offer(symbols[b.left].prev, b.left);
    offer(b.left, symbols[b.left].next);
  }
}

}  // namespace infergate
