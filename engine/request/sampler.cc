#include "engine/request/sampler.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

namespace {

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

// The candidates still in play: cand[0, count), of which cand[0, sorted) is in ranks_before
// order.
struct Kept {
  size_t count;
  size_t sorted;
};

// One pass with a heap of the k best so far, worst on top: after the first few hundred logits
// almost every one is rejected by a single comparison. Ids arrive in increasing order, so a
// later equal logit never displaces an earlier one. Leaves the k best sorted.
void heap_top_k(const float* logits, size_t n, size_t k, std::vector<Candidate>& cand) {
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
}

// Top-k on the raw logits: dividing by a positive temperature keeps the order, and ranking
// before scaling avoids rounding merging two distinct logits into a tie. top_k <= 0 or >= n
// keeps every token, unsorted (in id order).
Kept keep_top_k(const float* logits, size_t n, int top_k, std::vector<Candidate>& cand) {
  const bool cut_k = top_k > 0 && static_cast<size_t>(top_k) < n;
  const size_t k = cut_k ? static_cast<size_t>(top_k) : n;
  if (cut_k && k <= kHeapTopKMax) {
    heap_top_k(logits, n, k, cand);
    return {k, k};
  }
  cand.resize(n);
  for (size_t i = 0; i < n; ++i) cand[i] = {sanitized(logits[i]), static_cast<int32_t>(i), 0.0f};
  if (cut_k) {
    const auto kth = cand.begin() + static_cast<ptrdiff_t>(k);
    std::nth_element(cand.begin(), kth, cand.end(), ranks_before);
    std::sort(cand.begin(), kth, ranks_before);
  }
  return {k, cut_k ? k : 0};
}

float max_kept_logit(const std::vector<Candidate>& cand, size_t count) {
  float max_logit = kNegInf;
  for (size_t i = 0; i < count; ++i) max_logit = std::max(max_logit, cand[i].logit);
  return max_logit;
}

// Temperature: each kept candidate's unnormalized probability; returns their sum. Subtracting
// the max first keeps exp in range; the max itself gets weight exactly 1 (also when it is
// +inf, where the +inf tokens share all the mass).
double weigh(std::vector<Candidate>& cand, size_t count, float max_logit, float temperature) {
  double total = 0.0;
  for (size_t i = 0; i < count; ++i) {
    Candidate& c = cand[i];
    c.weight = c.logit == max_logit ? 1.0f : std::exp((c.logit - max_logit) / temperature);
    total += c.weight;
  }
  return total;
}

// Sorts cand[kept.sorted, end) into place, end = min(count, sorted + chunk): nth_element moves
// that many best-ranked candidates up and only they are sorted.
void sort_next_chunk(std::vector<Candidate>& cand, Kept& kept, size_t chunk) {
  const size_t end = std::min(kept.count, kept.sorted + chunk);
  const auto first = cand.begin() + static_cast<ptrdiff_t>(kept.sorted);
  const auto last = cand.begin() + static_cast<ptrdiff_t>(end);
  if (end < kept.count) {
    std::nth_element(first, last, cand.begin() + static_cast<ptrdiff_t>(kept.count), ranks_before);
  }
  std::sort(first, last, ranks_before);
  kept.sorted = end;
}

// Top-p: walks candidates from the most probable, sorting only as far as the walk gets (in
// growing chunks), and keeps the shortest prefix whose mass reaches top_p * total. Returns the
// kept mass; if rounding never reaches the target, everything stays.
double keep_top_p(std::vector<Candidate>& cand, Kept& kept, float top_p, double total) {
  const double target = static_cast<double>(top_p) * total;
  size_t chunk = kTopPFirstChunk;
  double mass = 0.0;
  size_t i = 0;
  while (i < kept.count) {
    if (i == kept.sorted) {
      sort_next_chunk(cand, kept, chunk);
      chunk *= 4;
    }
    mass += cand[i].weight;
    ++i;
    if (mass >= target) break;
  }
  kept.count = i;
  return mass;
}

// Inverse-CDF draw of r in [0, total) over the kept set, in a deterministic order (sorted, or
// id order when no cut was made). Zero-weight tokens cannot satisfy r < cum, and rounding past
// the end falls back to the last token that has weight.
int32_t draw(const std::vector<Candidate>& cand, size_t count, double r) {
  double cum = 0.0;
  int32_t last_with_weight = cand[0].id;
  for (size_t i = 0; i < count; ++i) {
    if (cand[i].weight <= 0.0f) continue;
    cum += cand[i].weight;
    last_with_weight = cand[i].id;
    if (r < cum) return cand[i].id;
  }
  return last_with_weight;
}

void check_row(const float* logits, int32_t vocab_size, const char* what) {
  if (logits == nullptr) throw std::invalid_argument(std::string(what) + ": logits is null");
  if (vocab_size < 1) {
    throw std::invalid_argument(std::string(what) + ": vocab_size must be >= 1, got " +
                                std::to_string(vocab_size));
  }
}

// The distribution sample_token draws from: the kept candidates cand[0, count) with their
// weights; returns their total, or 0 when the softmax is undefined (every logit -inf).
double kept_distribution(const float* logits, int32_t vocab_size, const SamplingParams& params,
                         std::vector<Candidate>& cand, Kept& kept) {
  kept = keep_top_k(logits, static_cast<size_t>(vocab_size), params.top_k, cand);
  const float max_logit = max_kept_logit(cand, kept.count);
  if (max_logit == kNegInf) return 0.0;
  double total = weigh(cand, kept.count, max_logit, params.temperature);
  if (params.top_p < 1.0f) total = keep_top_p(cand, kept, params.top_p, total);
  return total;
}

}  // namespace

int32_t sample_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                     Xoshiro256& rng) {
  check_row(logits, vocab_size, "sample_token");
  if (!(params.temperature > 0.0f)) return argmax(logits, vocab_size);
  const double u = rng.uniform();  // drawn up front: one step per sampled token, always
  if (params.top_k == 1) return argmax(logits, vocab_size);

  // Reused across calls: no 32000-entry allocation per generated token.
  thread_local std::vector<Candidate> cand;
  Kept kept{};
  const double total = kept_distribution(logits, vocab_size, params, cand, kept);
  if (total == 0.0) return argmax(logits, vocab_size);  // softmax undefined
  return draw(cand, kept.count, u * total);
}

int32_t verify_draft_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                           int32_t draft, Xoshiro256& rng) {
  check_row(logits, vocab_size, "verify_draft_token");
  const int32_t best = argmax(logits, vocab_size);
  if (!(params.temperature > 0.0f)) return best;
  const double accept = rng.uniform();
  thread_local std::vector<Candidate> cand;
  Kept kept{};
  const double total = kept_distribution(logits, vocab_size, params, cand, kept);
  if (total == 0.0) return best;  // softmax undefined: sample_token's answer
  double draft_weight = 0.0;
  for (size_t i = 0; i < kept.count; ++i) {
    if (cand[i].id == draft) draft_weight = cand[i].weight;
  }
  if (accept * total < draft_weight) return draft;  // accept with probability p(draft)
  // Rejected: the draft's weight leaves the distribution. Zero weight keeps draw() from ever
  // returning it; its order stays, so the draw is as deterministic as sample_token's.
  const double rest = total - draft_weight;
  if (rest <= 0.0) return draft;  // p(draft) == 1 up to rounding: nothing else to draw
  for (size_t i = 0; i < kept.count; ++i) {
    if (cand[i].id == draft) cand[i].weight = 0.0f;
  }
  return draw(cand, kept.count, rng.uniform() * rest);
}

std::vector<float> sampling_distribution(const float* logits, int32_t vocab_size,
                                         const SamplingParams& params) {
  check_row(logits, vocab_size, "sampling_distribution");
  std::vector<float> probs(size_t(vocab_size), 0.0f);
  thread_local std::vector<Candidate> cand;
  Kept kept{};
  const bool greedy = !(params.temperature > 0.0f) || params.top_k == 1;
  const double total = greedy ? 0.0 : kept_distribution(logits, vocab_size, params, cand, kept);
  if (total == 0.0) {
    probs[size_t(argmax(logits, vocab_size))] = 1.0f;
    return probs;
  }
  for (size_t i = 0; i < kept.count; ++i) {
    probs[size_t(cand[i].id)] = float(double(cand[i].weight) / total);
  }
  return probs;
}

int32_t verify_draft_token(const float* logits, int32_t vocab_size, const SamplingParams& params,
                           int32_t draft, const float* q, Xoshiro256& rng) {
  check_row(logits, vocab_size, "verify_draft_token");
  if (q == nullptr) throw std::invalid_argument("verify_draft_token: q is null");
  if (!(params.temperature > 0.0f)) return argmax(logits, vocab_size);
  const double accept = rng.uniform();
  const std::vector<float> p = sampling_distribution(logits, vocab_size, params);
  const double pd = p[size_t(draft)], qd = q[draft];
  if (accept * qd < pd) return draft;  // accept with probability min(1, p/q)
  // Rejected: draw from the residual max(0, p - q), in id order.
  double rest = 0.0;
  for (int32_t i = 0; i < vocab_size; ++i) rest += std::max(0.0, double(p[size_t(i)]) - q[i]);
  const double r = rng.uniform() * rest;
  double cum = 0.0;
  int32_t last = -1;
  for (int32_t i = 0; i < vocab_size; ++i) {
    const double w = std::max(0.0, double(p[size_t(i)]) - q[i]);
    if (w <= 0.0) continue;
    cum += w;
    last = i;
    if (r < cum) return i;
  }
  // No residual mass (p == q up to rounding, where the draft would stand): keep the draft
  // unless the target cannot produce it at all.
  return last >= 0 ? last : (pd > 0.0 ? draft : argmax(logits, vocab_size));
}

}  // namespace infergate
