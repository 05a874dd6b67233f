#include "engine/request/sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

namespace {

uint64_t splitmix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// NaN would break the strict weak ordering std::nth_element/std::sort rely on.
float sanitized(float logit) { return std::isnan(logit) ? kNegInf : logit; }

struct Candidate {
  float logit;
  int32_t id;
  float weight;  // unnormalized probability exp((logit - max) / temperature)
};

// A strict total order (ids are unique), so every standard library produces the same order and
// the same kept set: higher logit first, ties to the lower id.
bool ranks_before(const Candidate& a, const Candidate& b) {
  return a.logit > b.logit || (a.logit == b.logit && a.id < b.id);
}

// One pass; `>` keeps the first (lowest) id among ties and never picks a NaN.
int32_t argmax(const float* logits, int32_t vocab_size) {
  int32_t best = 0;
  float best_logit = sanitized(logits[0]);
  for (int32_t i = 1; i < vocab_size; ++i) {
    if (logits[i] > best_logit) {
      best_logit = logits[i];
      best = i;
    }
  }
  return best;
}

// First top-p chunk to sort; LLM nuclei are usually far smaller than the vocabulary, so the
// prefix is sorted incrementally instead of sorting all candidates.
constexpr size_t kTopPFirstChunk = 128;

// Up to this k, top-k keeps a heap of the best k in one pass; above it, nth_element over all
// candidates is cheaper than the heap's log-k updates.
constexpr size_t kHeapTopKMax = 256;

}  // namespace

SamplingRng::SamplingRng(uint64_t seed) {
  for (uint64_t& word : s_) word = splitmix64(seed);
}

uint64_t SamplingRng::next_u64() {
  const uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

double SamplingRng::uniform() { return static_cast<double>(next_u64() >> 11) * 0x1.0p-53; }

int32_t sample_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                     SamplingRng& rng) {
  if (logits == nullptr) throw std::invalid_argument("sample_token: logits is null");
  if (vocab_size < 1) {
    throw std::invalid_argument("sample_token: vocab_size must be >= 1, got " +
                                std::to_string(vocab_size));
  }
  if (!(params.temperature > 0.0f)) return argmax(logits, vocab_size);
  const double u = rng.uniform();  // drawn up front: one step per sampled token, always
  if (params.top_k == 1) return argmax(logits, vocab_size);

  // Reused across calls: no 32000-entry allocation per generated token.
  thread_local std::vector<Candidate> cand;
  const size_t n = static_cast<size_t>(vocab_size);
  const bool cut_k = params.top_k > 0 && static_cast<size_t>(params.top_k) < n;
  const size_t k = cut_k ? static_cast<size_t>(params.top_k) : n;

  // Top-k on the raw logits: dividing by a positive temperature keeps the order, and ranking
  // before scaling avoids rounding merging two distinct logits into a tie.
  if (cut_k && k <= kHeapTopKMax) {
    // One pass with a heap of the k best so far, worst on top: after the first few hundred
    // logits almost every one is rejected by a single comparison. Ids arrive in increasing
    // order, so a later equal logit never displaces an earlier one.
    cand.clear();
    for (size_t i = 0; i < n; ++i) {
      const Candidate c{sanitized(logits[i]), static_cast<int32_t>(i), 0.0f};
      if (cand.size() < k) {
        cand.push_back(c);
        std::push_heap(cand.begin(), cand.end(), ranks_before);
      } else if (ranks_before(c, cand.front())) {
        std::pop_heap(cand.begin(), cand.end(), ranks_before);
        cand.back() = c;
        std::push_heap(cand.begin(), cand.end(), ranks_before);
      }
    }
    std::sort_heap(cand.begin(), cand.end(), ranks_before);
  } else {
    cand.resize(n);
    for (size_t i = 0; i < n; ++i) {
      cand[i] = {sanitized(logits[i]), static_cast<int32_t>(i), 0.0f};
    }
    if (cut_k) {
      std::nth_element(cand.begin(), cand.begin() + static_cast<ptrdiff_t>(k), cand.end(),
                       ranks_before);
      std::sort(cand.begin(), cand.begin() + static_cast<ptrdiff_t>(k), ranks_before);
    }
  }
  size_t kept = k;
  size_t sorted = cut_k ? k : 0;  // cand[0, sorted) is in ranks_before order

  float max_logit = kNegInf;
  for (size_t i = 0; i < kept; ++i) max_logit = std::max(max_logit, cand[i].logit);
  if (max_logit == kNegInf) return argmax(logits, vocab_size);  // softmax undefined

  // Subtracting the max first keeps exp in range; the max itself gets weight exactly 1 (also
  // when it is +inf, where the +inf tokens share all the mass).
  const float temperature = params.temperature;
  double total = 0.0;
  for (size_t i = 0; i < kept; ++i) {
    Candidate& c = cand[i];
    c.weight = c.logit == max_logit ? 1.0f : std::exp((c.logit - max_logit) / temperature);
    total += c.weight;
  }

  if (params.top_p < 1.0f) {
    // Walk candidates from the most probable, sorting only as far as the walk gets: each time
    // it reaches the end of the sorted prefix, nth_element moves the next (growing) chunk of
    // best-ranked candidates up and that chunk alone is sorted.
    const double target = static_cast<double>(params.top_p) * total;
    size_t chunk = kTopPFirstChunk;
    double mass = 0.0;
    size_t i = 0;
    while (i < kept) {
      if (i == sorted) {
        const size_t end = std::min(kept, sorted + chunk);
        const auto first = cand.begin() + static_cast<ptrdiff_t>(sorted);
        const auto last = cand.begin() + static_cast<ptrdiff_t>(end);
        if (end < kept) {
          std::nth_element(first, last, cand.begin() + static_cast<ptrdiff_t>(kept), ranks_before);
        }
        std::sort(first, last, ranks_before);
        sorted = end;
        chunk *= 4;
      }
      mass += cand[i].weight;
      ++i;
      if (mass >= target) break;
    }
    kept = i;  // if rounding never reaches the target, everything stays
    total = mass;
  }

  // Inverse-CDF draw over the kept set, in a deterministic order (sorted, or id order when no
  // cut was made). Zero-weight tokens cannot satisfy r < cum, and rounding past the end falls
  // back to the last token that has weight.
  const double r = u * total;
  double cum = 0.0;
  int32_t last_with_weight = cand[0].id;
  for (size_t i = 0; i < kept; ++i) {
    if (cand[i].weight <= 0.0f) continue;
    cum += cand[i].weight;
    last_with_weight = cand[i].id;
    if (r < cum) return cand[i].id;
  }
  return last_with_weight;
}

}  // namespace infergate
