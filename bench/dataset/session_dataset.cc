#include "bench/dataset/session_dataset.h"

#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/dataset/bounded_line.h"
#include "bench/dataset/dataset_error.h"
#include "bench/dataset/jsonl_dataset.h"
#include "bench/dataset/length_sampler.h"
#include "bench/dataset/record_json.h"
#include "bench/workload/workload_limits.h"
#include "common/random/random_variates.h"

namespace infergate {

namespace {

constexpr int32_t kBos = 1;
constexpr int32_t kFirstOrdinaryId = 3;
constexpr size_t kMaxLineBytes = size_t(64) << 20;  // as jsonl datasets: ShareGPT's longest ~1 MB

// Sub-streams of the seed: fixed, so one setting's change leaves the others' draws alone.
enum Stream : uint64_t { kTurns, kMessageLengths, kAnswerLengths, kTokens, kSystem };

Xoshiro256 stream(uint64_t seed, Stream s) { return Xoshiro256(seed * 0x9e3779b97f4a7c15ULL + s); }

void append_tokens(std::vector<int32_t>& out, int n, Xoshiro256& rng, int32_t vocab_size) {
  for (int i = 0; i < n; ++i) {
    out.push_back(kFirstOrdinaryId +
                  int32_t(uniform_index(rng, uint64_t(vocab_size - kFirstOrdinaryId))));
  }
}

std::vector<BenchSession> synthetic_sessions(const DatasetSpec& spec, uint64_t seed,
                                             int32_t vocab_size) {
  const SessionsSpec& s = spec.sessions;
  check_length_distribution(s.turns, "dataset.turns");
  check_length_distribution(spec.input_tokens, "dataset.input_tokens");
  check_length_distribution(spec.output_tokens, "dataset.output_tokens");
  Xoshiro256 turns = stream(seed, kTurns), messages = stream(seed, kMessageLengths),
             answers = stream(seed, kAnswerLengths), tokens = stream(seed, kTokens),
             system_rng = stream(seed, kSystem);
  std::vector<int32_t> system = {kBos};
  append_tokens(system, s.system_prompt_tokens, system_rng, vocab_size);
  std::vector<BenchSession> out(size_t(s.num_sessions));
  int64_t total = 0;
  for (BenchSession& session : out) {
    const int n = sample_length(s.turns, turns);
    for (int k = 0; k < n; ++k) {
      BenchTurn t;
      if (k == 0) t.message = system;
      append_tokens(t.message, sample_length(spec.input_tokens, messages), tokens, vocab_size);
      t.max_tokens = sample_length(spec.output_tokens, answers);
      total += int64_t(t.message.size());
      if (total > kMaxDatasetTokens) {
        throw std::invalid_argument("dataset: the sessions' messages hold more than " +
                                    std::to_string(kMaxDatasetTokens) +
                                    " tokens (the dataset limit); ask for fewer or shorter");
      }
      session.turns.push_back(std::move(t));
    }
  }
  return out;
}

std::vector<int32_t> encode(const std::string& text, bool bos, const DatasetTokenizer& tok) {
  return tok.tokenizer->encode(text, bos && tok.add_bos);
}

// A conversation's turns: a human message answered by a gpt one; other speakers are skipped.
BenchSession sharegpt_session(const nlohmann::json& record, const DatasetTokenizer& tok,
                              const std::string& file, int line) {
  const auto fail = [&](const std::string& why) { throw DatasetError(file, line, why); };
  if (!record.is_object() || !record.contains("conversations") ||
      !record["conversations"].is_array()) {
    fail("expected {\"conversations\": [...]}");
  }
  BenchSession s;
  const nlohmann::json& turns = record["conversations"];
  for (size_t i = 0; i + 1 < turns.size(); ++i) {
    const nlohmann::json& a = turns[i];
    const nlohmann::json& b = turns[i + 1];
    if (!a.is_object() || !b.is_object() || !a.value("value", nlohmann::json()).is_string() ||
        !b.value("value", nlohmann::json()).is_string()) {
      fail("\"conversations\"[" + std::to_string(i) +
           "]: turns need \"from\" and a \"value\" string");
    }
    if (a.value("from", "") != "human" || b.value("from", "") != "gpt") continue;
    BenchTurn t;
    t.message = encode(a["value"].get<std::string>(), s.turns.empty(), tok);
    t.max_tokens = int(encode(b["value"].get<std::string>(), false, tok).size());
    ++i;
    if (t.message.empty() || t.max_tokens == 0) continue;
    s.turns.push_back(std::move(t));
  }
  return s;
}

std::vector<BenchSession> sharegpt_sessions(const std::string& file, const DatasetTokenizer& tok,
                                            int max_sessions) {
  std::ifstream in(file);
  if (!in) throw DatasetError(file, 0, "cannot open the dataset file");
  std::vector<BenchSession> out;
  std::string line;
  int64_t total = 0, skipped = 0;
  for (int n = 1; int(out.size()) < max_sessions &&
                  read_bounded_line(in, line, kMaxLineBytes, file, n, "conversation");
       ++n) {
    if (blank_line(line)) continue;
    BenchSession s = sharegpt_session(parse_record_json(line, file, n), tok, file, n);
    for (const BenchTurn& t : s.turns) total += int64_t(t.message.size());
    if (total > kMaxDatasetTokens) {
      throw DatasetError(file, n,
                         "the sessions hold more than " + std::to_string(kMaxDatasetTokens) +
                             " message tokens (the dataset limit); set "
                             "dataset.num_sessions lower");
    }
    if (s.turns.empty()) {
      ++skipped;
    } else {
      out.push_back(std::move(s));
    }
  }
  if (out.empty()) throw DatasetError(file, 0, "no conversation with a human turn answered");
  if (skipped > 0) {  // said, as a trace's unusable records are
    std::cerr << "dataset " << file << ": " << skipped
              << " conversations without a human turn answered by a gpt turn were left out\n";
  }
  return out;
}

}  // namespace

std::vector<BenchSession> make_session_dataset(const DatasetSpec& spec, uint64_t seed,
                                               int32_t vocab_size, const std::string& base_dir,
                                               const DatasetTokenizer* text) {
  if (vocab_size <= kFirstOrdinaryId)
    throw std::invalid_argument("dataset: vocab_size must be >= 4");
  if (spec.format != "sharegpt") return synthetic_sessions(spec, seed, vocab_size);
  const DatasetTokenizer tok =
      text ? *text : byte_dataset_tokenizer(vocab_size, "no model tokenizer");
  return sharegpt_sessions(resolve_dataset_path(spec.path, base_dir), tok,
                           spec.sessions.num_sessions);
}

int64_t longest_session_tokens(const std::vector<BenchSession>& sessions) {
  int64_t longest = 0;
  for (const BenchSession& s : sessions) {
    int64_t n = 0;
    for (const BenchTurn& t : s.turns) n += int64_t(t.message.size()) + t.max_tokens;
    longest = std::max(longest, n);
  }
  return longest;
}

}  // namespace infergate
