// The n-gram proposer of speculative decoding (prompt lookup, vLLM's `ngram`): the text a
// request has seen often says what comes next. Find the latest earlier place where the last n
// tokens occurred (n from max_n down to min_n, longest match first) and propose the tokens
// that followed it there, continued periodically where they reach the present (a repeating
// loop is proposed in full). No model runs; a proposal costs one scan of the tokens.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace infergate {

// Up to `count` tokens proposed to follow `tokens` (the prompt and the output so far); empty
// when no n-gram of length min_n..max_n recurs. Needs 1 <= min_n <= max_n.
std::vector<int32_t> propose_ngram(std::span<const int32_t> tokens, int min_n, int max_n,
                                   int count);

}  // namespace infergate
