// "Did you mean ...?" for misspelled keys and choices: the candidate nearest by edit distance.
#pragma once

#include <string>
#include <vector>

namespace infergate {

// Levenshtein distance (insertions, deletions, substitutions), case-sensitive.
size_t edit_distance(const std::string& a, const std::string& b);

// The candidate closest to `word`, or "" when none is close enough to be a plausible typo
// (distance at most 2, or at most a third of the word's length for longer words, or the
// candidate starts with the word).
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

}  // namespace infergate
