#include "kernels/cuda/sampling.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>

#include "engine/request/sampler.h"
#include "kernels/cuda/device_buffer.h"
#include "tests/cuda/cuda_test_util.h"
#include "tests/kernels/test_util.h"

namespace infergate {

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr double kNoMargin = std::numeric_limits<double>::infinity();
// A draw or top-p cut farther than this (relative to the total weight) from a boundary must give
// the CPU's token exactly: a last-bit difference of every weight moves a cumulative sum by at
// most 6e-8 of the total, and the double sums' order by far less.
constexpr double kFarFromBoundary = 1e-6;

float sanitized(float x) { return std::isnan(x) ? -kInf : x; }

SamplingParams cpu_params(const cuda::DeviceSamplingParams& p) {
  SamplingParams s;
  s.temperature = p.temperature;
  s.top_k = p.top_k;
  s.top_p = p.top_p;
  return s;
}

int32_t cpu_token(const float* logits, int32_t vocab, const cuda::DeviceSamplingParams& p,
                  uint64_t seed) {
  Xoshiro256 rng(seed);
  return sample_token(logits, vocab, cpu_params(p), rng);
}

// The candidates sample_token keeps for a row, in the order its draw walks them, with their
// weights and cumulative weights: engine/request/sampler.h's rules re-derived the obvious way.
struct Walk {
  bool greedy = false;
  std::vector<int32_t> ids;
  std::vector<float> weights;
  std::vector<double> cum;
  double cut_margin = kNoMargin;  // top-p: the cut's distance from its target, relative
};

Walk reference_walk(const float* logits, int32_t vocab, const cuda::DeviceSamplingParams& p) {
  std::vector<int32_t> rank(static_cast<size_t>(vocab));
  std::iota(rank.begin(), rank.end(), 0);
  std::stable_sort(rank.begin(), rank.end(), [&](int32_t a, int32_t b) {
    return sanitized(logits[a]) > sanitized(logits[b]);
  });
  const float max_logit = sanitized(logits[rank[0]]);
  Walk w;
  if (!(p.temperature > 0.0f) || p.top_k == 1 || max_logit == -kInf) {
    w.greedy = true;
    w.ids = {rank[0]};
    return w;
  }
  const bool cut_k = p.top_k > 0 && p.top_k < vocab, cut_p = p.top_p < 1.0f;
  w.ids.assign(rank.begin(), rank.begin() + (cut_k ? p.top_k : vocab));
  if (!cut_k && !cut_p) std::sort(w.ids.begin(), w.ids.end());  // no cut: id order
  double total = 0;
  for (int32_t id : w.ids) {
    const float l = sanitized(logits[id]);
    w.weights.push_back(l == max_logit ? 1.0f : std::exp((l - max_logit) / p.temperature));
    total += w.weights.back();
  }
  if (cut_p) {
    const double target = double(p.top_p) * total;
    double mass = 0, before = 0;
    size_t kept = 0;
    while (kept < w.ids.size()) {
      before = mass;
      mass += w.weights[kept++];
      if (mass >= target) break;
    }
    w.cut_margin = std::min(std::fabs(mass - target), std::fabs(target - before)) / total;
    w.ids.resize(kept);
    w.weights.resize(kept);
  }
  double cum = 0;
  for (float weight : w.weights) w.cum.push_back(cum += weight);
  return w;
}

struct Draw {
  int32_t id;
  double margin;  // the draw's distance from its interval's ends, relative to the total
};

Draw reference_draw(const Walk& w, double u) {
  if (w.greedy) return {w.ids[0], kNoMargin};
  const double total = w.cum.back(), r = u * total;
  for (size_t i = 0; i < w.ids.size(); ++i) {
    if (w.weights[i] > 0.0f && r < w.cum[i]) {
      const double low = i > 0 ? w.cum[i - 1] : 0.0;
      return {w.ids[i], std::min(r - low, w.cum[i] - r) / total};
    }
  }
  return {-1, 0.0};  // rounding ran past the end: the margin is nil anyway
}

bool contains(const std::vector<int32_t>& ids, int32_t id) {
  return std::find(ids.begin(), ids.end(), id) != ids.end();
}

// Logits of six kinds: ties (odd multiples of 1/8), peaked, flat, with NaN and -inf holes, with
// two +inf (they share all the mass), and all -inf or all NaN (greedy: token 0).
std::vector<float> sampling_row(int32_t vocab, int kind, std::mt19937& rng) {
  std::normal_distribution<float> normal(0.0f, 1.0f);
  std::uniform_int_distribution<int32_t> pos(0, vocab - 1);
  std::vector<float> x(static_cast<size_t>(vocab));
  for (float& v : x) {
    const float g = normal(rng);
    v = kind == 0   ? (2.0f * std::round(g * 8.0f) + 1.0f) / 16.0f
        : kind == 1 ? 6.0f * g
                    : 0.5f * g + 0.001f;
  }
  if (kind == 3) {
    for (int i = 0; i < vocab / 10 + 1; ++i) x[size_t(pos(rng))] = (i % 2) ? kNaN : -kInf;
  } else if (kind == 4) {
    x[size_t(pos(rng))] = kInf;
    x[size_t(pos(rng))] = kInf;
    x[size_t(pos(rng))] = kNaN;
  } else if (kind == 5) {
    std::fill(x.begin(), x.end(), rng() % 2 ? kNaN : -kInf);
  }
  return x;
}
constexpr int kRowKinds = 6;

// sample_rows over rows [rows, vocab] on the device.
std::vector<int32_t> gpu_sample(const std::vector<float>& logits,
                                const std::vector<cuda::DeviceSamplingParams>& params,
                                int64_t vocab) {
  const int64_t rows = int64_t(params.size());
  testing::TestStream stream;
  cuda::DeviceBuffer<float> dlogits(logits);
  cuda::DeviceBuffer<cuda::DeviceSamplingParams> dparams(params);
  cuda::DeviceBuffer<int32_t> dout(params.size());
  cuda::DeviceBuffer<unsigned char> workspace(cuda::sample_rows_workspace_bytes(rows, vocab));
  dout.fill_bytes(testing::kPoison);
  cuda::sample_rows(dlogits.data(), dparams.data(), rows, vocab, dout.data(), workspace.data(),
                    stream.get());
  stream.sync();
  return dout.to_host();
}

// Random rows of every kind over parameter combinations: the GPU's token must be in the CPU's
// kept set always, and the CPU's token wherever the draw is far from a boundary; near one it may
// differ, in at most 1% of the rows.
void check_against_cpu(int32_t vocab, const std::vector<float>& temperatures,
                       const std::vector<int32_t>& top_ks, const std::vector<float>& top_ps,
                       int64_t min_rows = 0) {
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", vocab " << vocab);
  std::mt19937 rng(seed);
  std::vector<float> logits;
  std::vector<cuda::DeviceSamplingParams> params;
  std::vector<uint64_t> seeds;
  do {  // every kind of row under every combination, until there are min_rows
    for (int kind = 0; kind < kRowKinds; ++kind) {
      for (float t : temperatures) {
        for (int32_t k : top_ks) {
          for (float p : top_ps) {
            const std::vector<float> row = sampling_row(vocab, kind, rng);
            logits.insert(logits.end(), row.begin(), row.end());
            seeds.push_back(uint64_t(seed) * 1000003u + params.size());
            params.push_back({t, k, p, Xoshiro256(seeds.back()).uniform()});
          }
        }
      }
    }
  } while (int64_t(params.size()) < min_rows);
  const std::vector<int32_t> got = gpu_sample(logits, params, vocab);
  int64_t near_boundary = 0, differ = 0;
  for (size_t r = 0; r < params.size(); ++r) {
    const float* row = logits.data() + r * size_t(vocab);
    const cuda::DeviceSamplingParams& p = params[r];
    INFO("row " << r << ": temperature " << p.temperature << ", top_k " << p.top_k << ", top_p "
                << p.top_p << ", uniform " << p.uniform);
    const Walk walk = reference_walk(row, vocab, p);
    const Draw draw = reference_draw(walk, p.uniform);
    const int32_t want = cpu_token(row, vocab, p, seeds[r]);
    REQUIRE(contains(walk.ids, want));  // the reference agrees with the CPU on the kept set
    REQUIRE(contains(walk.ids, got[r]));
    const bool far = std::min(draw.margin, walk.cut_margin) > kFarFromBoundary;
    if (far) REQUIRE(got[r] == want);
    near_boundary += !far;
    differ += got[r] != want;
  }
  WARN("vocab " << vocab << ": " << differ << " of " << params.size() << " rows differ from the "
                << "CPU (" << near_boundary << " near a boundary)");
  CHECK(differ * 100 <= int64_t(params.size()));
}

}  // namespace

TEST_CASE("cuda: argmax_rows is sample_token's greedy choice, ties to the lowest id, NaN as -inf") {
  const int32_t vocab = GENERATE(1, 7, 32000, 151936);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", vocab " << vocab);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> pos(0, vocab - 1);
  constexpr int kRows = 9;
  std::vector<float> x = testing::random_values(int64_t(kRows) * vocab, seed);
  const auto row = [&](int r) { return x.begin() + int64_t(r) * vocab; };
  for (float& v : x) v *= 10.0f;
  // 1: the max repeated at both ends; 2: NaN first and scattered, with a tie; 3: all NaN;
  // 4: all -inf; 5: two +inf; 6: all equal; 7: -0 and +0 tied on top; 8: NaN at the max.
  const float top1 = *std::max_element(row(1), row(2));
  *row(1) = top1;
  *(row(2) - 1) = top1;
  for (int i = 0; i < vocab / 7 + 1; ++i) *(row(2) + pos(rng)) = kNaN;
  *row(2) = kNaN;
  *(row(2) + pos(rng)) = 50.0f;
  *(row(2) + pos(rng)) = 50.0f;
  std::fill(row(3), row(4), kNaN);
  std::fill(row(4), row(5), -kInf);
  *(row(5) + pos(rng)) = kInf;
  *(row(5) + pos(rng)) = kInf;
  std::fill(row(6), row(7), 0.5f);
  std::transform(row(7), row(8), row(7), [](float v) { return -std::fabs(v); });
  *(row(7) + pos(rng)) = -0.0f;
  *(row(7) + pos(rng)) = 0.0f;
  *(std::max_element(row(8), row(9))) = kNaN;

  std::vector<int32_t> want(kRows);
  for (int r = 0; r < kRows; ++r) {
    Xoshiro256 unused(0);
    want[size_t(r)] = sample_token(&*row(r), vocab, SamplingParams{}, unused);
  }
  testing::TestStream stream;
  cuda::DeviceBuffer<float> dx(x);
  cuda::DeviceBuffer<int32_t> dout(kRows);
  dout.fill_bytes(testing::kPoison);
  cuda::argmax_rows(dx.data(), kRows, vocab, dout.data(), stream.get());
  stream.sync();
  CHECK(dout.to_host() == want);
}

TEST_CASE("cuda: sample_rows draws sample_token's token from the same uniform") {
  const int32_t vocab = GENERATE(1, 7, 1003, 32000);
  check_against_cpu(vocab, {0.0f, 0.25f, 1.0f, 2.5f}, {0, 1, 2, 40, vocab, vocab + 7},
                    {1.0f, 0.97f, 0.6f, 0.1f});
}

TEST_CASE("cuda: sample_rows sorts a large batch in more than one chunk of rows") {
  // 443 rows of 151936 logits are more than the 2^26 sorted at a time.
  check_against_cpu(151936, {0.7f, 1.3f}, {0, 50}, {1.0f, 0.9f}, 443);
}

TEST_CASE("cuda: sample_rows equals sample_token exactly on rows drawn far from any boundary") {
  // A few dominant tokens over noise, and per row the first request seed whose uniform lands far
  // inside a candidate's interval (and whose top-p cut is far from its target).
  const int32_t vocab = GENERATE(7, 1003, 32000);
  const uint32_t seed = testing::fresh_seed();
  INFO("seed " << seed << ", vocab " << vocab);
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int32_t> pos(0, vocab - 1);
  std::vector<float> logits;
  std::vector<cuda::DeviceSamplingParams> params;
  std::vector<int32_t> want;
  int skipped = 0;
  for (float t : {0.5f, 1.0f, 2.0f}) {
    for (int32_t k : {0, 3, 40}) {
      for (float p : {1.0f, 0.8f, 0.3f}) {
        std::vector<float> row = testing::random_values(vocab, uint32_t(rng()));
        for (int i = 0; i < 5; ++i) row[size_t(pos(rng))] = 25.0f + float(i) * 1.2f;
        cuda::DeviceSamplingParams dp{t, k, p, 0.0};
        const Walk walk = reference_walk(row.data(), vocab, dp);
        uint64_t s = uint64_t(rng());
        for (int tries = 0; tries < 10000; ++tries, ++s) {
          dp.uniform = Xoshiro256(s).uniform();
          if (reference_draw(walk, dp.uniform).margin > 1e-3) break;
        }
        if (walk.cut_margin <= 1e-4 || reference_draw(walk, dp.uniform).margin <= 1e-3) {
          ++skipped;
          continue;
        }
        want.push_back(cpu_token(row.data(), vocab, dp, s));
        REQUIRE(want.back() == reference_draw(walk, dp.uniform).id);
        logits.insert(logits.end(), row.begin(), row.end());
        params.push_back(dp);
      }
    }
  }
  INFO(skipped << " rows skipped");
  CHECK(skipped * 4 <= int(params.size()));
  CHECK(gpu_sample(logits, params, vocab) == want);
}

}  // namespace infergate
