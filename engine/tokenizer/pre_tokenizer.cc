#include "engine/tokenizer/pre_tokenizer.h"

#include <stdexcept>

#include "engine/tokenizer/gpt2_byte_map.h"

namespace infergate {

const char* const kGpt2SplitPattern =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

namespace {

std::vector<TextSpan> find_literal(const std::string& text, const std::string& literal) {
  std::vector<TextSpan> out;
  if (literal.empty()) return out;
  for (size_t at = text.find(literal); at != std::string::npos;
       at = text.find(literal, at + literal.size())) {
    out.push_back({at, at + literal.size()});
  }
  return out;
}

// `pieces` with each piece replaced by its cuts; a piece keeps its start flag on its first cut.
template <typename Cut>
void cut_pieces(std::vector<PreTokenPiece>& pieces, Cut&& cut) {
  std::vector<PreTokenPiece> out;
  out.reserve(pieces.size());
  for (PreTokenPiece& piece : pieces) {
    const std::vector<TextSpan> spans = cut(piece.text);
    for (const TextSpan& s : spans) {
      out.push_back(
          {piece.text.substr(s.begin, s.end - s.begin), piece.at_text_start && s.begin == 0});
    }
  }
  pieces = std::move(out);
}

std::string replace_spaces(const std::string& text, const std::string& replacement) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == ' ') {
      out += replacement;
    } else {
      out.push_back(c);
    }
  }
  return out;
}

}  // namespace

PreTokenizerStep PreTokenizerStep::split_pattern(const std::string& pattern, SplitBehavior behavior,
                                                 bool invert) {
  PreTokenizerStep s;
  s.kind_ = Kind::kSplit;
  s.pattern_ = std::make_shared<SplitRegex>(pattern);
  s.behavior_ = behavior;
  s.invert_ = invert;
  return s;
}

PreTokenizerStep PreTokenizerStep::split_string(std::string text, SplitBehavior behavior,
                                                bool invert) {
  PreTokenizerStep s;
  s.kind_ = Kind::kSplit;
  s.literal_ = std::move(text);
  s.behavior_ = behavior;
  s.invert_ = invert;
  return s;
}

PreTokenizerStep PreTokenizerStep::byte_level(bool add_prefix_space, bool use_regex) {
  PreTokenizerStep s;
  s.kind_ = Kind::kByteLevel;
  s.add_prefix_space_ = add_prefix_space;
  s.use_regex_ = use_regex;
  if (use_regex) s.pattern_ = std::make_shared<SplitRegex>(kGpt2SplitPattern);
  return s;
}

PreTokenizerStep PreTokenizerStep::metaspace(std::string replacement,
                                             const std::string& prepend_scheme, bool split) {
  PreTokenizerStep s;
  s.kind_ = Kind::kMetaspace;
  s.replacement_ = std::move(replacement);
  if (prepend_scheme == "always") {
    s.prepend_ = Prepend::kAlways;
  } else if (prepend_scheme == "first") {
    s.prepend_ = Prepend::kFirst;
  } else if (prepend_scheme == "never") {
    s.prepend_ = Prepend::kNever;
  } else {
    throw std::invalid_argument("Metaspace prepend_scheme '" + prepend_scheme +
                                "' (allowed: always, first, never)");
  }
  s.metaspace_split_ = split;
  return s;
}

void PreTokenizerStep::apply(std::vector<PreTokenPiece>& pieces) const {
  switch (kind_) {
    case Kind::kSplit:
      split(pieces);
      return;
    case Kind::kByteLevel:
      byte_level(pieces);
      return;
    case Kind::kMetaspace:
      metaspace(pieces);
      return;
  }
}

void PreTokenizerStep::split(std::vector<PreTokenPiece>& pieces) const {
  cut_pieces(pieces, [&](const std::string& text) {
    const std::vector<TextSpan> matches =
        pattern_ ? pattern_->find_all(text) : find_literal(text, literal_);
    return split_by_matches(text.size(), matches, behavior_, invert_);
  });
}

void PreTokenizerStep::byte_level(std::vector<PreTokenPiece>& pieces) const {
  if (add_prefix_space_) {
    for (PreTokenPiece& p : pieces) {
      if (p.text.empty() || p.text[0] != ' ') p.text.insert(0, 1, ' ');
    }
  }
  if (use_regex_) {
    cut_pieces(pieces, [&](const std::string& text) {
      return split_by_matches(text.size(), pattern_->find_all(text), SplitBehavior::kIsolated,
                              false);
    });
  }
  for (PreTokenPiece& p : pieces) p.text = gpt2_bytes_to_text(p.text);
}

void PreTokenizerStep::metaspace(std::vector<PreTokenPiece>& pieces) const {
  for (PreTokenPiece& p : pieces) {
    p.text = replace_spaces(p.text, replacement_);
    const bool starts = p.text.compare(0, replacement_.size(), replacement_) == 0;
    if (!starts &&
        (prepend_ == Prepend::kAlways || (prepend_ == Prepend::kFirst && p.at_text_start))) {
      p.text.insert(0, replacement_);
    }
  }
  if (!metaspace_split_) return;
  cut_pieces(pieces, [&](const std::string& text) {
    return split_by_matches(text.size(), find_literal(text, replacement_),
                            SplitBehavior::kMergedWithNext, false);
  });
}

PreTokenizerStep digits_step(bool individual) {
  return PreTokenizerStep::split_pattern(individual ? "\\p{N}" : "\\p{N}+",
                                         SplitBehavior::kIsolated, false);
}

PreTokenizerStep punctuation_step(SplitBehavior behavior) {
  // Rust's is_ascii_punctuation or a Unicode P* category, one character a match.
  return PreTokenizerStep::split_pattern("[\\p{P}\\x21-\\x2F\\x3A-\\x40\\x5B-\\x60\\x7B-\\x7E]",
                                         behavior, false);
}

PreTokenizerStep whitespace_step() {
  return PreTokenizerStep::split_pattern("\\w+|[^\\w\\s]+", SplitBehavior::kRemoved, true);
}

PreTokenizerStep whitespace_split_step() {
  return PreTokenizerStep::split_pattern("\\s+", SplitBehavior::kRemoved, false);
}

std::vector<PreTokenPiece> pre_tokenize(const std::vector<PreTokenizerStep>& steps,
                                        std::string text, bool at_text_start) {
  std::vector<PreTokenPiece> pieces;
  if (text.empty()) return pieces;
  pieces.push_back({std::move(text), at_text_start});
  for (const PreTokenizerStep& step : steps) step.apply(pieces);
  return pieces;
}

}  // namespace infergate
