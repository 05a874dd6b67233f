#include "bench/dataset/synthetic_dataset.h"

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench/dataset/length_sampler.h"
#include "common/random/random_variates.h"

namespace infergate {

namespace {

constexpr int32_t kBosId = 1;
constexpr int32_t kFirstOrdinaryId = 3;  // 0..2 are unk, bos, eos

// Sub-stream ids: fixed forever, or every synthetic dataset changes.
enum Stream : uint64_t { kInputLengths, kOutputLengths, kPrefixChoice, kPrefixTokens, kTokens };

class TokenSource {
 public:
  TokenSource(uint64_t seed, int32_t vocab_size)
      : rng_(seed), span_(static_cast<uint64_t>(vocab_size - kFirstOrdinaryId)) {}

  void append(std::vector<int32_t>& out, int n) {
    for (int i = 0; i < n; ++i) {
      out.push_back(kFirstOrdinaryId + static_cast<int32_t>(uniform_index(rng_, span_)));
    }
  }

 private:
  Xoshiro256 rng_;
  uint64_t span_;
};

bool uses_prefixes(const SharedPrefixSpec& p) {
  return p.num_prefixes > 0 && p.prefix_tokens > 0 && p.fraction > 0;
}

void check_spec(const DatasetSpec& spec, int32_t vocab_size) {
  if (vocab_size <= kFirstOrdinaryId) {
    throw std::invalid_argument("synthetic dataset needs vocab_size >= 4, got " +
                                std::to_string(vocab_size));
  }
  check_length_distribution(spec.input_tokens, "dataset.input_tokens");
  check_length_distribution(spec.output_tokens, "dataset.output_tokens");
  const SharedPrefixSpec& p = spec.shared_prefix;
  if (p.num_prefixes < 0 || p.prefix_tokens < 0 || !(p.fraction >= 0 && p.fraction <= 1)) {
    throw std::invalid_argument(
        "dataset.shared_prefix: num_prefixes and prefix_tokens must be >= 0 and fraction in "
        "[0, 1]");
  }
}

std::vector<std::vector<int32_t>> make_prefixes(const SharedPrefixSpec& p, uint64_t seed,
                                                int32_t vocab_size) {
  std::vector<std::vector<int32_t>> prefixes;
  if (!uses_prefixes(p)) return prefixes;
  TokenSource tokens(substream_seed(seed, kPrefixTokens), vocab_size);
  for (int i = 0; i < p.num_prefixes; ++i) {
    std::vector<int32_t>& prefix = prefixes.emplace_back(1, kBosId);
    tokens.append(prefix, p.prefix_tokens - 1);
  }
  return prefixes;
}

}  // namespace

std::vector<BenchRequest> make_synthetic_dataset(const DatasetSpec& spec, int count, uint64_t seed,
                                                 int32_t vocab_size) {
  check_spec(spec, vocab_size);
  const auto prefixes = make_prefixes(spec.shared_prefix, seed, vocab_size);
  Xoshiro256 input_lengths(substream_seed(seed, kInputLengths));
  Xoshiro256 output_lengths(substream_seed(seed, kOutputLengths));
  Xoshiro256 prefix_choice(substream_seed(seed, kPrefixChoice));
  TokenSource tokens(substream_seed(seed, kTokens), vocab_size);

  std::vector<BenchRequest> requests(static_cast<size_t>(count));
  for (BenchRequest& r : requests) {
    const int input_length = sample_length(spec.input_tokens, input_lengths);
    r.max_tokens = sample_length(spec.output_tokens, output_lengths);
    // Both draws happen for every request, so the choice stream stays aligned by index.
    const bool shared = uniform_open01(prefix_choice) < spec.shared_prefix.fraction;
    const uint64_t which = uniform_index(prefix_choice, std::max<uint64_t>(prefixes.size(), 1));
    if (shared && !prefixes.empty()) {
      r.prompt = prefixes[which];
      tokens.append(r.prompt, input_length);
    } else {
      r.prompt.assign(1, kBosId);
      tokens.append(r.prompt, input_length - 1);
    }
  }
  return requests;
}

}  // namespace infergate
