// A regular expression (vLLM's guided_regex, the subset outlines and xgrammar take) as GBNF
// text, so a regex-constrained request runs on the same GrammarMatcher as a GBNF one.
//
// The pattern is compiled to a deterministic automaton over code points and written as one
// rule per state (`s3 ::= [0-9] s3 | "-" s4 | ""`), with states that lead one way written
// inline (`\d{3}-\d{4}` becomes `root ::= [0-9] [0-9] [0-9] "-" [0-9] [0-9] [0-9] [0-9]`).
// Why not a rule per regex construct: an ambiguous pattern such as (a+)+b or \w+\d* would keep
// one matcher parse per way of splitting the text, past GrammarMatcher::kMaxStacks within a few
// dozen bytes; the automaton keeps one parse alive per character whatever the pattern.
//
// Supported (the ECMAScript/Python common subset):
//   literals (UTF-8, any code point); `.` = any character but \n (Python without DOTALL);
//   classes [...] and [^...] with ranges, escapes and shorthands inside (a ']' first in a class
//   is refused as ambiguous between the two dialects: write \]); \d \D \w \W \s \S, ASCII only:
//   \d = [0-9], \w = [A-Za-z0-9_], \s = [ \t\n\r\f\v] (so \d takes no Arabic-Indic digit and
//   \D takes every non-ASCII character); escapes \n \t \r \f \v \xHH \uHHHH \UHHHHHHHH, and a
//   backslash before any ASCII punctuation or space is that character; [\b] is backspace;
//   groups ( ), (?: ), and named groups (?P<name> ) / (?<name> ) as plain groups; alternation
//   with empty alternatives; * + ? {m} {m,} {m,n} (counts at most 1000) and the lazy forms
//   *? +? ?? {m,n}? (laziness picks among matches, it does not change which strings match, so
//   they are greedy here); `^` as the first byte and `$` as the last (the match is anchored at
//   both ends anyway); a bare ']' or '}' is a literal (as in Python). The empty pattern matches
//   only the empty string.
// Refused, naming the 0-based byte offset: backreferences (\1, \k<n>, (?P=n)); lookarounds;
// atomic groups and possessive quantifiers; inline flags like (?i); word boundaries and other
// anchors (\b \B \A \Z \z \G); \p{..}; POSIX [:alpha:]; octal escapes; ^ or $ elsewhere;
// unbalanced parentheses; a quantifier with nothing to repeat or following another; a '{' that
// is no quantifier ({,n} included: write {0,n}); {m,n} with n < m; invalid UTF-8 or surrogates.
// Limits: 4096 bytes of pattern, groups nested 64 deep, 200000 automaton (NFA) states once
// counted repetitions are unrolled, 10000 deterministic states, and the GBNF within
// Grammar::kMaxTextBytes and what parse_gbnf takes.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "engine/grammar/grammar.h"

namespace infergate {

inline constexpr size_t kMaxRegexBytes = 4096;
inline constexpr int kMaxRegexNesting = 64;

// The GBNF (root rule "root") whose sentences are exactly the strings the whole pattern matches
// (anchored at both ends, as vLLM's guided_regex is). Throws GrammarError naming the position
// (0-based byte offset) and the construct for anything unsupported or malformed, and for a
// pattern that matches no string or whose automaton is over the limits above. The text is
// checked with parse_gbnf before it is returned.
std::string regex_to_gbnf(std::string_view pattern);

}  // namespace infergate
