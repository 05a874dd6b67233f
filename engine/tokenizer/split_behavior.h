// How a pre-tokenizer's matches cut a piece of text (tokenizer.json's "behavior" of Split,
// Punctuation and Digits): the matches and the text between them become pieces, then
//   Removed             the matches are dropped;
//   Isolated            every match and every gap is a piece of its own;
//   MergedWithPrevious  a match joins the gap before it;
//   MergedWithNext      a match joins the gap after it;
//   Contiguous          runs of matches join into one piece, as do runs of gaps.
// `invert` swaps what counts as the match. Empty pieces are never produced.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/split_regex.h"

namespace infergate {

enum class SplitBehavior { kRemoved, kIsolated, kMergedWithPrevious, kMergedWithNext, kContiguous };

// The behavior named as tokenizer.json names it; throws std::invalid_argument listing the names.
SplitBehavior parse_split_behavior(const std::string& name);

// The pieces of a text of `size` bytes cut at `matches` (sorted, non-overlapping).
std::vector<TextSpan> split_by_matches(size_t size, const std::vector<TextSpan>& matches,
                                       SplitBehavior behavior, bool invert);

}  // namespace infergate
