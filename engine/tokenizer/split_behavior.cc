#include "engine/tokenizer/split_behavior.h"

#include <stdexcept>

namespace infergate {

namespace {

struct Cut {
  TextSpan span;
  bool match;
};

// The text as alternating gaps and matches, in order.
std::vector<Cut> cuts(size_t size, const std::vector<TextSpan>& matches, bool invert) {
  std::vector<Cut> out;
  size_t at = 0;
  for (const TextSpan& m : matches) {
    if (m.begin > at) out.push_back({{at, m.begin}, invert});
    out.push_back({m, !invert});
    at = m.end;
  }
  if (at < size) out.push_back({{at, size}, invert});
  return out;
}

// A match (not after another match) joins the piece before it.
std::vector<TextSpan> merged_with_previous(const std::vector<Cut>& cuts) {
  std::vector<TextSpan> out;
  bool previous_match = false;
  for (const Cut& c : cuts) {
    if (c.match && !previous_match && !out.empty()) {
      out.back().end = c.span.end;
    } else {
      out.push_back(c.span);
    }
    previous_match = c.match;
  }
  return out;
}

// A match (not before another match) joins the piece after it.
std::vector<TextSpan> merged_with_next(const std::vector<Cut>& cuts) {
  std::vector<TextSpan> reversed;
  bool next_match = false;
  for (auto c = cuts.rbegin(); c != cuts.rend(); ++c) {
    if (c->match && !next_match && !reversed.empty()) {
      reversed.back().begin = c->span.begin;
    } else {
      reversed.push_back(c->span);
    }
    next_match = c->match;
  }
  return {reversed.rbegin(), reversed.rend()};
}

std::vector<TextSpan> contiguous(const std::vector<Cut>& cuts) {
  std::vector<TextSpan> out;
  bool previous_match = false;
  for (const Cut& c : cuts) {
    if (c.match == previous_match && !out.empty()) {
      out.back().end = c.span.end;
    } else {
      out.push_back(c.span);
    }
    previous_match = c.match;
  }
  return out;
}

}  // namespace

SplitBehavior parse_split_behavior(const std::string& name) {
  if (name == "Removed") return SplitBehavior::kRemoved;
  if (name == "Isolated") return SplitBehavior::kIsolated;
  if (name == "MergedWithPrevious") return SplitBehavior::kMergedWithPrevious;
  if (name == "MergedWithNext") return SplitBehavior::kMergedWithNext;
  if (name == "Contiguous") return SplitBehavior::kContiguous;
  throw std::invalid_argument("split behavior '" + name +
                              "' (allowed: Removed, Isolated, MergedWithPrevious, MergedWithNext, "
                              "Contiguous)");
}

std::vector<TextSpan> split_by_matches(size_t size, const std::vector<TextSpan>& matches,
                                       SplitBehavior behavior, bool invert) {
  const std::vector<Cut> all = cuts(size, matches, invert);
  switch (behavior) {
    case SplitBehavior::kRemoved: {
      std::vector<TextSpan> out;
      for (const Cut& c : all) {
        if (!c.match) out.push_back(c.span);
      }
      return out;
    }
    case SplitBehavior::kIsolated: {
      std::vector<TextSpan> out;
      out.reserve(all.size());
      for (const Cut& c : all) out.push_back(c.span);
      return out;
    }
    case SplitBehavior::kMergedWithPrevious:
      return merged_with_previous(all);
    case SplitBehavior::kMergedWithNext:
      return merged_with_next(all);
    case SplitBehavior::kContiguous:
      return contiguous(all);
  }
  return {};
}

}  // namespace infergate
