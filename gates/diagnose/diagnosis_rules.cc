#include "gates/diagnose/diagnosis_rules.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace infergate {

namespace {

// Thresholds (docs/diagnose.md, "The rules", says why each is where it is).
constexpr double kHarnessLagShare = 0.25;    // send lag P95 / TTFT P95
constexpr double kKvFull = 0.95;             // peak kv_usage
constexpr double kSharedPrefixShare = 0.3;   // of prompt tokens
constexpr double kTailRatio = 1.3;           // TPOT P95 / P50
constexpr double kInterferenceR = 0.5;       // TPOT against concurrent prefill tokens
constexpr double kPromptR = 0.8;             // TTFT against prompt length
constexpr double kLongPrompt = 256;          // mean prompt tokens
constexpr double kPrefillShareOfTtft = 0.5;  // slope x mean prompt / mean TTFT
constexpr double kQueuedShare = 0.3;         // engine samples with requests waiting
constexpr double kKvRoom = 0.8;              // peak kv_usage below which memory is not the limit
constexpr double kFloorRatio = 1.25;         // TPOT P50 / one engine step
constexpr double kBatchOne = 1.5;            // mean requests in flight
constexpr double kSustainableShare = 0.5;    // of the completed rate a lagging harness reached

std::string num(double v, int digits = 1) {
  std::ostringstream s;
  s.setf(std::ios::fixed);
  s.precision(digits);
  s << v;
  return s.str();
}
// As a --set value: no trailing zeros ("500000", "2.5").
std::string plain(double v) {
  std::ostringstream s;
  s.precision(12);
  s << v;
  return s.str();
}
std::string pct(double fraction) { return num(100 * fraction, fraction < 0.1 ? 1 : 0) + "%"; }
std::string integer(double v) { return std::to_string(int64_t(std::llround(v))); }

Finding finding(const char* id, const char* symptom, const RunMeasurements& m, std::string evidence,
                nlohmann::json measurements) {
  return {id, symptom, m.point, std::move(evidence), std::move(measurements), {}};
}

Remedy remedy(std::string name, std::vector<std::string> sets, std::string expected,
              std::string cost, std::string metric, Direction better = Direction::kLowerIsBetter) {
  return {std::move(name), std::move(sets),   "",     std::move(expected),
          std::move(cost), std::move(metric), better, std::nullopt};
}

bool engine_like(const RunMeasurements& m) {
  return m.target_type == "engine" || m.target_type == "simulated" || m.target_type == "router";
}

// An open loop's rate this harness keeps up with: half the completed rate it reached while behind
// (at 80% a busy 2-core machine still lagged in some runs), and at most half the rate asked for.
Remedy sustainable_rate(const RunMeasurements& m) {
  const double reached = m.request_rate > 0 ? m.request_rate : m.load_rate;
  const double rate = std::min(m.load_rate / 2, kSustainableShare * reached);
  const double scale = std::pow(10.0, std::floor(std::log10(rate)) - 1);
  const double rounded = std::floor(rate / scale) * scale;  // two significant digits, down
  return remedy("offer a rate this harness keeps up with", {"load.rate=" + plain(rounded)},
                "the generator keeps its schedule: send lag P95 falls",
                pct(rounded / m.load_rate) + " of the load asked for (the run completed " +
                    num(reached, 0) + " req/s); to keep the load, split it over load ranks (next)",
                "summary.send_lag_ms.p95");
}

// Was the harness the bottleneck? Its send lag grew through the run and is a sizeable share of
// the latency it measured.
std::optional<Finding> harness_limited(const RunMeasurements& m, std::vector<std::string>& notes) {
  if (m.harness_limited_repetitions == 0) return std::nullopt;
  const double share = m.ttft.p95 > 0 ? m.send_lag.p95 / m.ttft.p95 : 1.0;
  if (share < kHarnessLagShare) {
    notes.push_back("the harness's send lag grew in " +
                    std::to_string(m.harness_limited_repetitions) +
                    " repetition(s), but its P95 (" + num(m.send_lag.p95, 2) + " ms) is " +
                    pct(share) + " of TTFT P95: not what set the pace");
    return std::nullopt;
  }
  Finding f = finding("harness-limited", "the harness was the bottleneck", m,
                      "the send lag grew through " + std::to_string(m.harness_limited_repetitions) +
                          " of " + std::to_string(m.repetitions) + " repetition(s): send lag P95 " +
                          num(m.send_lag.p95, 2) + " ms is " + pct(share) + " of TTFT P95 " +
                          num(m.ttft.p95, 2) +
                          " ms, so the target was not offered the load the workload asks for",
                      {{"harness_limited_repetitions", m.harness_limited_repetitions},
                       {"send_lag_ms_p95", m.send_lag.p95},
                       {"ttft_ms_p95", m.ttft.p95},
                       {"lag_share", share}});
  if (m.load_rate > 0) f.remedies.push_back(sustainable_rate(m));
  if (m.target_type == "echo" || m.target_type == "openai") {
    Remedy ranks = remedy("split the load over load ranks", {},
                          "each rank sends its share of the same schedule: send lag stays flat",
                          "N harness processes (and cores); not an override, so --verify skips it",
                          "summary.send_lag_ms.p95");
    ranks.command =
        "mpirun -np 2 infergate run WORKLOAD (docs/distributed.md, \"Load from many hosts\")";
    f.remedies.push_back(ranks);
  }
  return f;
}

// Did the KV cache run out? The scheduler preempts only when a sequence's next block cannot be
// allocated, so a preemption is the pool running out; the sampled peak usage (every 100 ms) is
// shown beside it but may miss the moment.
std::optional<Finding> kv_memory_wall(const RunMeasurements& m, std::vector<std::string>&) {
  if (!engine_like(m) || m.preemptions <= 0) return std::nullopt;
  const double blocks = m.num_kv_blocks.value_or(0);
  const double peak = m.kv_usage_peak.value_or(NAN);
  Finding f = finding(
      "kv-memory-wall", "memory-bound on KV", m,
      "KV usage reached " + (std::isfinite(peak) ? pct(peak) : std::string("(not sampled)")) +
          " and " + integer(m.preemptions) + " preemptions happened per repetition (" +
          num(m.preemptions / std::max(1.0, m.num_requests), 2) + " per request)" +
          (blocks > 0 ? " in a pool of " + integer(blocks) + " blocks" : "") +
          ": preempted sequences give their blocks back and recompute their tokens later",
      {{"kv_usage_peak", std::isfinite(peak) ? nlohmann::json(peak) : nlohmann::json(nullptr)},
       {"preemptions", m.preemptions},
       {"num_kv_blocks", blocks},
       {"num_requests", m.num_requests}});
  const std::string dtype = m.engine_field<std::string>("kv_cache_dtype", "f32");
  const auto by_bytes = m.engine_field<int64_t>("num_kv_blocks", 0) == 0;
  const std::string metric = "summary.ttft_ms.p95";
  if (by_bytes && m.engine_field<std::string>("backend", "cpu") == "cpu" &&
      (dtype == "f32" || dtype == "f16" || dtype == "bf16")) {
    f.remedies.push_back(
        remedy("quantize the KV cache to int8", {"target.engine.kv_cache_dtype=int8"},
               std::string("about ") + (dtype == "f32" ? "4x" : "2x") +
                   " the KV blocks in the same kv_cache_bytes: fewer preemptions, TTFT P95 down",
               "KV quantization error (measure it with a quality section, docs/quantization.md); a "
               "dequantize in every attention",
               metric));
  }
  if (by_bytes) {
    const auto bytes = m.engine_field<int64_t>("kv_cache_bytes", 268435456);
    f.remedies.push_back(remedy("give the KV pool twice the memory",
                                {"target.engine.kv_cache_bytes=" + std::to_string(2 * bytes)},
                                "twice the blocks: fewer preemptions, TTFT P95 down",
                                "memory: " + std::to_string(bytes) + " more bytes of KV", metric));
  } else {
    const auto n = m.engine_field<int64_t>("num_kv_blocks", 0);
    f.remedies.push_back(remedy("give the KV pool twice the blocks",
                                {"target.engine.num_kv_blocks=" + std::to_string(2 * n)},
                                "fewer preemptions, TTFT P95 down", "memory: twice the KV pool",
                                metric));
  }
  return f;
}

// Do prompts share a prefix the prefix cache could serve, with the cache off?
std::optional<Finding> shared_prefix_cache_off(const RunMeasurements& m,
                                               std::vector<std::string>& notes) {
  if (!engine_like(m) || m.engine_field("prefix_caching", true)) return std::nullopt;
  if (!m.shared_prefix_share) {
    notes.push_back("the prefix cache is off and the share of shared prompt tokens is unknown: " +
                    m.shared_prefix_source);
    return std::nullopt;
  }
  const double share = *m.shared_prefix_share;
  if (share < kSharedPrefixShare) return std::nullopt;
  Finding f =
      finding("shared-prefix-cache-off", "shared prompt prefixes recomputed (prefix cache off)", m,
              pct(share) + " of prompt tokens share a prefix another request computed before (" +
                  m.shared_prefix_source + ") and the prefix cache is off, so every request " +
                  "prefills its prefix again (TTFT P50 " + num(m.ttft.p50) + " ms)",
              {{"shared_prefix_share", share},
               {"source", m.shared_prefix_source},
               {"input_tokens_mean", m.input_tokens_mean},
               {"ttft_ms_p50", m.ttft.p50}});
  std::vector<std::string> sets = {"target.engine.prefix_caching=true"};
  if (!m.engine_field("paged_kv", true)) sets.insert(sets.begin(), "target.engine.paged_kv=true");
  f.remedies.push_back(
      remedy("prefix caching", sets,
             "a cached prefix is not prefilled again: TTFT P50 down by up to the "
             "shared share of the prefill",
             "cached blocks stay in the KV pool until evicted (they are evictable, "
             "so no request waits for them)",
             "summary.ttft_ms.p50"));
  return f;
}

// Does the decode tail rise with the prefill work that ran beside it?
std::optional<Finding> prefill_interference(const RunMeasurements& m,
                                            std::vector<std::string>& notes) {
  if (!engine_like(m) || m.tpot.p50 <= 0 || m.tpot.p95 < kTailRatio * m.tpot.p50)
    return std::nullopt;
  if (!m.tpot_by_prefill) {
    notes.push_back("TPOT P95 is " + num(m.tpot.p95 / m.tpot.p50, 2) + "x TPOT P50, but " +
                    (m.has_records ? std::string("too few requests overlapped a prefill")
                                   : std::string("no per-request records (run --requests) show "
                                                 "what ran beside each request")));
    return std::nullopt;
  }
  const LineFit& fit = *m.tpot_by_prefill;
  if (fit.r < kInterferenceR || fit.slope <= 0) return std::nullopt;
  Finding f = finding("prefill-interference", "prefill interference", m,
                      "TPOT P95 is " + num(m.tpot.p95 / m.tpot.p50, 2) + "x TPOT P50 (" +
                          num(m.tpot.p95, 2) + " vs " + num(m.tpot.p50, 2) +
                          " ms) and rises with concurrent prefill tokens (r = " + num(fit.r, 2) +
                          ", +" + num(fit.slope * 100, 2) +
                          " ms per 100 prompt tokens prefilled per decoded token, " +
                          std::to_string(fit.n) + " requests)",
                      {{"tpot_ms_p50", m.tpot.p50},
                       {"tpot_ms_p95", m.tpot.p95},
                       {"r", fit.r},
                       {"slope_ms_per_prefill_token", fit.slope},
                       {"requests", fit.n}});
  const auto budget = m.engine_field<int64_t>("max_num_batched_tokens", 2048);
  const int64_t chunk = budget > 256 ? 256 : std::max<int64_t>(32, budget / 2);
  f.remedies.push_back(
      remedy("chunked prefill in smaller chunks",
             {"target.engine.chunked_prefill=true",
              "target.engine.max_num_batched_tokens=" + std::to_string(chunk)},
             "a step carries at most " + std::to_string(chunk) +
                 " tokens, so no decode waits for a whole long prefill: ITL P99 (the longest "
                 "stalls) down",
             "the prefill's work is spread over more steps, not removed: more tokens wait a "
             "little (ITL P95 and TPOT may rise), and long prompts' TTFT rises",
             "summary.itl_ms.p99"));
  if (m.target_type == "engine") {
    f.remedies.push_back(remedy(
        "prefill/decode disaggregation",
        {"target.type=router", "target.router.replicas=2", "target.router.prefill_replicas=1"},
        "decodes run on a worker that never prefills a whole prompt: TPOT P95 down",
        "two engine processes (twice the cores or devices), and moving the KV adds to TTFT "
        "(docs/disaggregation.md)",
        "summary.tpot_ms.p95"));
  }
  return f;
}

// Is TTFT the prefill's compute, growing with prompt length?
std::optional<Finding> long_prompt(const RunMeasurements& m, std::vector<std::string>& notes) {
  if (!engine_like(m) || m.input_tokens_mean < kLongPrompt) return std::nullopt;
  if (!m.ttft_by_prompt) {
    notes.push_back("prompts average " + num(m.input_tokens_mean, 0) + " tokens, but " +
                    (m.has_records ? std::string("their lengths do not vary enough")
                                   : std::string("no per-request records (run --requests)")) +
                    " to tell how TTFT follows prompt length");
    return std::nullopt;
  }
  const LineFit& fit = *m.ttft_by_prompt;
  const double explained = m.ttft.mean > 0 ? fit.slope * m.input_tokens_mean / m.ttft.mean : 0;
  if (fit.r < kPromptR || fit.slope <= 0 || explained < kPrefillShareOfTtft) return std::nullopt;
  Finding f =
      finding("long-prompt", "compute-bound prefill of long prompts", m,
              "TTFT grows linearly with prompt length (slope " + num(fit.slope, 3) +
                  " ms/token, r = " + num(fit.r, 2) + ", " + std::to_string(fit.n) +
                  " requests): prompts average " + num(m.input_tokens_mean, 0) +
                  " tokens and their prefill is " + pct(std::min(1.0, explained)) + " of mean TTFT",
              {{"slope_ms_per_token", fit.slope},
               {"intercept_ms", fit.intercept},
               {"r", fit.r},
               {"requests", fit.n},
               {"input_tokens_mean", m.input_tokens_mean},
               {"ttft_ms_mean", m.ttft.mean},
               {"prefill_share_of_ttft", explained}});
  const std::string weights = m.engine_field<std::string>("weight_dtype", "auto");
  if (m.engine_field<std::string>("backend", "cpu") == "cpu" &&
      (weights == "auto" || weights == "f32")) {
    f.remedies.push_back(remedy(
        "8-bit weights", {"target.engine.weight_dtype=q8_0"},
        "the integer kernels multiply a quarter of the weight bytes: prefill faster, TTFT P50 down",
        "quantization error (measure it with a quality section, docs/quantization.md)",
        "summary.ttft_ms.p50"));
  }
  // Chunking does not shorten a prompt's own prefill; it lets the requests beside it go on.
  if (!m.engine_field("chunked_prefill", true) && m.mean_concurrency > kBatchOne) {
    f.remedies.push_back(
        remedy("chunked prefill",
               {"target.engine.chunked_prefill=true", "target.engine.max_num_batched_tokens=256"},
               "a long prompt is prefilled 256 tokens a step beside the other requests' decodes "
               "instead of "
               "holding whole steps: TPOT P95 down",
               "the long prompt's own TTFT does not fall (it may rise a little: more steps)",
               "summary.tpot_ms.p95"));
  }
  return f;
}

// Do requests queue while the engine runs at its batch limit with memory to spare?
std::optional<Finding> batch_limit(const RunMeasurements& m, std::vector<std::string>&) {
  if (!engine_like(m) || !m.waiting_share || !m.running_peak || !m.kv_usage_peak)
    return std::nullopt;
  const auto max_seqs = m.engine_field<int64_t>("max_num_seqs", 64);
  const bool static_batching = !m.engine_field("continuous_batching", true);
  if (*m.waiting_share < kQueuedShare || *m.kv_usage_peak >= kKvRoom) return std::nullopt;
  if (!static_batching && *m.running_peak < double(max_seqs)) return std::nullopt;
  Finding f = finding(
      "batch-limit", "batch too small for the load (compute left idle)", m,
      "requests waited in " + pct(*m.waiting_share) + " of the engine's samples while it ran " +
          (static_batching ? std::string("static batches")
                           : "its limit of " + std::to_string(max_seqs) + " sequences") +
          ", with KV usage at most " + pct(*m.kv_usage_peak) + ": TTFT P95 " + num(m.ttft.p95) +
          " ms",
      {{"waiting_share", *m.waiting_share},
       {"running_peak", *m.running_peak},
       {"max_num_seqs", max_seqs},
       {"kv_usage_peak", *m.kv_usage_peak},
       {"ttft_ms_p95", m.ttft.p95}});
  if (static_batching) {
    f.remedies.push_back(remedy("continuous batching", {"target.engine.continuous_batching=true"},
                                "requests join the running batch at every step: TTFT P95 down",
                                "none worth naming on this engine", "summary.ttft_ms.p95"));
  }
  const int64_t more = std::min<int64_t>(1024, 4 * max_seqs);
  if (more > max_seqs) {
    f.remedies.push_back(
        remedy("a larger batch", {"target.engine.max_num_seqs=" + std::to_string(more)},
               "the waiting requests start at once: TTFT P95 down",
               "larger steps (TPOT rises a little) and more KV in use", "summary.ttft_ms.p95"));
  }
  return f;
}

// One request at a time, each token one full decode step, and no speculation.
std::optional<Finding> speculation_floor(const RunMeasurements& m,
                                         std::vector<std::string>& notes) {
  if (m.target_type != "engine" || m.mean_concurrency > kBatchOne || !m.step_ms ||
      m.tpot.p50 <= 0) {
    return std::nullopt;
  }
  if (m.running_peak && *m.running_peak > 1) return std::nullopt;
  const nlohmann::json spec = m.engine.value("speculative", nlohmann::json::object());
  if (spec.value("method", "none") != "none" || m.tpot.p50 > kFloorRatio * *m.step_ms)
    return std::nullopt;
  if (!m.greedy) {
    notes.push_back(
        "TPOT is at its batch-1 floor, but sampling is not greedy: n-gram drafts are "
        "rarely accepted then");
    return std::nullopt;
  }
  notes.push_back(
      "whether the output repeats itself cannot be read from the results (no output "
      "token ids are recorded); n-gram drafts pay only when it does: --verify measures it");
  Finding f =
      finding("speculation-floor", "TPOT at its batch-1 floor: speculative decoding could help", m,
              "TPOT P50 " + num(m.tpot.p50, 2) + " ms is one engine step (" + num(*m.step_ms, 2) +
                  " ms) per token with " + num(m.mean_concurrency, 2) +
                  " request(s) in flight on average: batching cannot help, and speculation is off",
              {{"tpot_ms_p50", m.tpot.p50},
               {"step_ms", *m.step_ms},
               {"mean_concurrency", m.mean_concurrency}});
  f.remedies.push_back(remedy(
      "n-gram speculative decoding",
      {"target.engine.speculative.method=ngram", "target.engine.speculative.num_tokens=4"},
      "when the output repeats, a step verifies up to 4 drafted tokens: TPOT P50 down",
      "a step verifying rejected drafts costs more than a plain decode (docs/speculative.md)",
      "summary.tpot_ms.p50"));
  return f;
}

}  // namespace

const std::vector<DiagnosisRule>& diagnosis_rules() {
  static const std::vector<DiagnosisRule> rules = {
      {"harness-limited", "Did the harness fall behind its own schedule?", harness_limited},
      {"kv-memory-wall", "Did the KV cache run out (preemptions with the pool full)?",
       kv_memory_wall},
      {"shared-prefix-cache-off", "Do prompts share a prefix with the prefix cache off?",
       shared_prefix_cache_off},
      {"prefill-interference", "Does the decode tail rise with the prefills beside it?",
       prefill_interference},
      {"long-prompt", "Does TTFT grow with prompt length (compute-bound prefill)?", long_prompt},
      {"batch-limit", "Do requests queue at the batch limit with memory to spare?", batch_limit},
      {"speculation-floor", "Is TPOT one decode step per token at batch 1, without speculation?",
       speculation_floor},
  };
  return rules;
}

}  // namespace infergate
