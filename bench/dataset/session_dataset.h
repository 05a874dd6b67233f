// Multi-turn conversations (docs/workload-schema.md, "Sessions"): each session is a list of
// turns, a turn the user's new message and the answer length to ask for. What is sent for turn
// k is the history (every earlier message and the answers the target really gave) followed by
// turn k's message, so a turn depends on the answers before it; the load driver builds it.
//   synthetic  num_sessions conversations, each of `turns` turns (a length distribution),
//              messages of input_tokens, answers of output_tokens, and optionally one system
//              prompt of system_prompt_tokens that every session's first message starts with;
//   sharegpt   a JSONL file of {"conversations": [{"from": "human"|"gpt", "value": ...}]}:
//              each human turn followed by a gpt turn is a turn (the message tokenized, the
//              answer length the gpt turn's token count).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bench/dataset/dataset_tokenizer.h"
#include "bench/workload/workload.h"

namespace infergate {

struct BenchTurn {
  std::vector<int32_t> message;  // the first turn's starts with BOS
  int max_tokens = 0;
};

struct BenchSession {
  std::vector<BenchTurn> turns;  // at least one
};

// Throws std::invalid_argument for a bad spec and DatasetError for a bad file.
std::vector<BenchSession> make_session_dataset(const DatasetSpec& spec, uint64_t seed,
                                               int32_t vocab_size, const std::string& base_dir,
                                               const DatasetTokenizer* text);

// The most tokens one session's last turn holds (every message and answer), the longest over
// the sessions: what the target's context must take.
int64_t longest_session_tokens(const std::vector<BenchSession>& sessions);

}  // namespace infergate
