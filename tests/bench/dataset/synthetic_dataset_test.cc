// Synthetic datasets: lengths follow their distributions, clamps hold, prompts are made of
// ordinary token ids, shared prefixes are shared, and a seed always gives the same requests.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <vector>

#include "bench/dataset/dataset.h"
#include "bench/dataset/length_sampler.h"
#include "common/random/random_variates.h"

using namespace infergate;

namespace {

constexpr int32_t kVocab = 1000;

LengthDistribution fixed(int value) {
  LengthDistribution d;
  d.kind = LengthDistribution::Kind::kFixed;
  d.value = value;
  return d;
}

LengthDistribution uniform(int min, int max) {
  LengthDistribution d;
  d.kind = LengthDistribution::Kind::kUniform;
  d.min = min;
  d.max = max;
  return d;
}

LengthDistribution shaped(LengthDistribution::Kind kind, double mean, double stddev, int min = 1,
                          int max = 0) {
  LengthDistribution d;
  d.kind = kind;
  d.mean = mean;
  d.stddev = stddev;
  d.min = min;
  d.max = max;
  return d;
}

DatasetSpec synthetic(LengthDistribution input, LengthDistribution output) {
  DatasetSpec spec;
  spec.input_tokens = input;
  spec.output_tokens = output;
  return spec;
}

std::vector<int> draw(const LengthDistribution& d, int n, uint64_t seed = 7) {
  check_length_distribution(d, "test");
  Xoshiro256 rng(seed);
  std::vector<int> out;
  for (int i = 0; i < n; ++i) out.push_back(sample_length(d, rng));
  return out;
}

double mean_of(const std::vector<int>& v) {
  double s = 0;
  for (int x : v) s += x;
  return s / static_cast<double>(v.size());
}

double stddev_of(const std::vector<int>& v) {
  const double m = mean_of(v);
  double ss = 0;
  for (int x : v) ss += (x - m) * (x - m);
  return std::sqrt(ss / static_cast<double>(v.size() - 1));
}

// FNV-1a over every prompt token and max_tokens: pins the exact stream across platforms.
uint64_t fingerprint(const std::vector<BenchRequest>& requests) {
  uint64_t h = 0xcbf29ce484222325ull;
  auto mix = [&h](int64_t x) {
    h ^= static_cast<uint64_t>(x);
    h *= 0x100000001b3ull;
  };
  for (const BenchRequest& r : requests) {
    for (int32_t t : r.prompt) mix(t);
    mix(-r.max_tokens);
  }
  return h;
}

}  // namespace

TEST_CASE("fixed lengths are exact and never below 1", "[bench][dataset]") {
  for (int x : draw(fixed(37), 100)) CHECK(x == 37);
  for (int x : draw(fixed(0), 10)) CHECK(x == 1);
}

TEST_CASE("uniform lengths cover [min, max] evenly", "[bench][dataset]") {
  const std::vector<int> v = draw(uniform(10, 20), 22'000);
  std::map<int, int> histogram;
  for (int x : v) ++histogram[x];
  REQUIRE(histogram.size() == 11);
  CHECK(histogram.begin()->first == 10);
  CHECK(histogram.rbegin()->first == 20);
  // Each value has probability 1/11: 2000 expected, binomial sd ~43; 6 sd either way.
  for (const auto& [value, n] : histogram) CHECK(std::abs(n - 2000) < 260);
}

TEST_CASE("normal lengths have the requested mean and stddev", "[bench][dataset]") {
  const std::vector<int> v = draw(shaped(LengthDistribution::Kind::kNormal, 500, 100), 40'000);
  // Standard errors: mean 0.5, stddev ~0.35; rounding adds 1/12 to the variance.
  CHECK(mean_of(v) == Approx(500).margin(3));
  CHECK(stddev_of(v) == Approx(100).margin(2.5));
}

TEST_CASE("lognormal lengths have the requested mean and stddev of the length itself",
          "[bench][dataset]") {
  const std::vector<int> v = draw(shaped(LengthDistribution::Kind::kLognormal, 200, 100), 40'000);
  // Standard errors: mean 0.5; stddev ~0.9 (the lognormal's heavy tail inflates it).
  CHECK(mean_of(v) == Approx(200).margin(3));
  CHECK(stddev_of(v) == Approx(100).margin(6));
  CHECK(*std::min_element(v.begin(), v.end()) >= 1);
}

TEST_CASE("normal and lognormal lengths are clamped to [min, max] and never below 1",
          "[bench][dataset]") {
  for (auto kind : {LengthDistribution::Kind::kNormal, LengthDistribution::Kind::kLognormal}) {
    const std::vector<int> v = draw(shaped(kind, 100, 50, 80, 120), 5000);
    CHECK(*std::min_element(v.begin(), v.end()) == 80);
    CHECK(*std::max_element(v.begin(), v.end()) == 120);
  }
  const std::vector<int> wide = draw(shaped(LengthDistribution::Kind::kNormal, 1, 10, 0), 5000);
  CHECK(*std::min_element(wide.begin(), wide.end()) == 1);
  CHECK(*std::max_element(wide.begin(), wide.end()) > 20);  // max 0: no upper clamp
}

TEST_CASE("distributions that cannot be sampled are refused", "[bench][dataset]") {
  CHECK_THROWS_AS(check_length_distribution(uniform(20, 10), "x"), std::invalid_argument);
  CHECK_THROWS_AS(check_length_distribution(uniform(5, 0), "x"), std::invalid_argument);
  CHECK_THROWS_AS(check_length_distribution(shaped(LengthDistribution::Kind::kNormal, 10, -1), "x"),
                  std::invalid_argument);
  CHECK_THROWS_AS(
      check_length_distribution(shaped(LengthDistribution::Kind::kLognormal, 0, 1), "x"),
      std::invalid_argument);
  CHECK_THROWS_AS(
      check_length_distribution(shaped(LengthDistribution::Kind::kNormal, 10, 1, 50, 20), "x"),
      std::invalid_argument);
  CHECK_THROWS_AS(make_dataset(synthetic(fixed(4), fixed(4)), 1, 1, 3, ""), std::invalid_argument);
}

TEST_CASE("synthetic prompts are BOS then ordinary ids, as long as their sampled length",
          "[bench][dataset]") {
  const auto requests = make_dataset(synthetic(uniform(1, 64), uniform(1, 8)), 2000, 3, kVocab, "");
  REQUIRE(requests.size() == 2000);
  for (const BenchRequest& r : requests) {
    REQUIRE(!r.prompt.empty());
    CHECK(r.prompt.size() <= 64);
    CHECK(r.prompt[0] == 1);
    for (size_t i = 1; i < r.prompt.size(); ++i) {
      CHECK(r.prompt[i] >= 3);
      CHECK(r.prompt[i] < kVocab);
    }
    CHECK(r.max_tokens >= 1);
    CHECK(r.max_tokens <= 8);
  }
}

TEST_CASE("a synthetic dataset is a pure function of spec and seed", "[bench][dataset]") {
  DatasetSpec spec = synthetic(uniform(8, 40), uniform(1, 100));
  spec.shared_prefix = {3, 16, 0.5};
  const auto a = make_dataset(spec, 300, 99, kVocab, "");
  CHECK(fingerprint(make_dataset(spec, 300, 99, kVocab, "")) == fingerprint(a));
  CHECK(fingerprint(make_dataset(spec, 300, 100, kVocab, "")) != fingerprint(a));
  // Integer-only path (uniform lengths, uniform ids): pinned bit for bit on every platform.
  CHECK(fingerprint(a) == 0xc18091dbbaf51b9cull);

  spec.seed = 99;  // dataset.seed overrides the workload seed
  CHECK(fingerprint(make_dataset(spec, 300, 12345, kVocab, "")) == fingerprint(a));
}

TEST_CASE("changing the prefix fraction leaves every request's lengths alone", "[bench][dataset]") {
  DatasetSpec spec = synthetic(uniform(8, 40), uniform(1, 100));
  const auto plain = make_dataset(spec, 500, 5, kVocab, "");
  spec.shared_prefix = {2, 10, 0.5};
  const auto prefixed = make_dataset(spec, 500, 5, kVocab, "");
  for (size_t i = 0; i < plain.size(); ++i) {
    CHECK(plain[i].max_tokens == prefixed[i].max_tokens);
    const size_t extra = prefixed[i].prompt.size() - plain[i].prompt.size();
    CHECK((extra == 0 || extra == 10));
  }
}

TEST_CASE("shared prefixes: the fraction of requests using one, and which ones exist",
          "[bench][dataset]") {
  DatasetSpec spec = synthetic(fixed(16), fixed(4));
  spec.shared_prefix = {4, 32, 0.3};
  const int n = 10'000;
  const auto requests = make_dataset(spec, n, 21, kVocab, "");
  std::map<std::vector<int32_t>, int> prefix_uses;
  int shared = 0;
  for (const BenchRequest& r : requests) {
    if (r.prompt.size() == 16) continue;  // no prefix: BOS + 15 fresh tokens
    REQUIRE(r.prompt.size() == 32 + 16);  // prefix + the sampled length of fresh tokens
    ++shared;
    ++prefix_uses[std::vector<int32_t>(r.prompt.begin(), r.prompt.begin() + 32)];
  }
  // Binomial(10000, 0.3): sd 46, so 0.3 +- 0.0138 is 3 sd.
  CHECK(shared / double(n) == Approx(0.3).margin(0.0138));
  REQUIRE(prefix_uses.size() == 4);
  for (const auto& [prefix, uses] : prefix_uses) {
    CHECK(prefix[0] == 1);
    CHECK(std::abs(uses - shared / 4.0) < 6 * std::sqrt(shared * 0.25 * 0.75));
  }
  // Requests without a prefix continue with fresh tokens, not a prefix's.
  int lookalikes = 0;
  for (const BenchRequest& r : requests) {
    if (r.prompt.size() != 16) continue;
    for (const auto& [prefix, uses] : prefix_uses) {
      lookalikes += std::equal(r.prompt.begin(), r.prompt.end(), prefix.begin());
    }
  }
  CHECK(lookalikes == 0);
}
