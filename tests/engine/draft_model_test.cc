// Speculative decoding with a draft model (docs/speculative.md): a second model (a GGUF file),
// the target's own first layer, or its quantized copy drafts tokens with its own paged KV. The
// output is the target's exactly (greedy) or in distribution (sampled), whatever the draft's
// quality: one identical to the target (acceptance 1), one close (quantized), one poor (half the
// layers) and one unrelated (another seed: acceptance near 0).
#include <catch2/catch.hpp>

#include "engine/model/gguf_writer.h"
#include "speculative_rig.h"
#include "tests/temp_dir.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

// The target and an unrelated model of the same shape, written as GGUF drafts.
struct DraftFiles {
  TempDir dir{"infergate-draft"};
  std::string same = dir.file("same.gguf");
  std::string unrelated = dir.file("unrelated.gguf");
  DraftFiles() {
    write_gguf(spec_target(), same);
    write_gguf(make_synthetic_model(small_test_config(), 99), unrelated);
  }
};

const DraftFiles& draft_files() {
  static const DraftFiles files;
  return files;
}

EngineConfig drafting(EngineConfig c, SpeculativeMethod method, const std::string& model = "") {
  c.speculative_method = method;
  c.speculative_draft_model = model;
  c.speculative_num_tokens = 4;
  return c;
}

double acceptance(const EngineStats& s) {
  return double(s.spec_num_accepted_tokens) / double(s.spec_num_draft_tokens);
}

}  // namespace

TEST_CASE("greedy tokens are identical with a draft model", "[engine][speculative]") {
  const std::vector<Tokens> prompts = spec_prompts(10);
  const SamplingParams params = fixed_tokens(40);
  EngineConfig c;
  c.num_kv_blocks = 256;
  SECTION("batched") {}
  SECTION("preempting: a pool of 20 blocks") {
    c.num_kv_blocks = 20;
    c.block_size = 8;
    c.max_model_len = 128;
  }
  SECTION("prefix hits, block size 7") {
    c.block_size = 7;
    c.max_num_seqs = 3;
  }
  SECTION("chunked prefill with a budget of 16 tokens (the draft's catch-up split too)") {
    c.max_num_batched_tokens = 16;
  }
  const SpecRun plain = run_prompts(c, prompts, params);
  struct Draft {
    std::string name;
    EngineConfig config;
    double min_acceptance, max_acceptance;
  };
  EngineConfig first_layer = drafting(c, SpeculativeMethod::kSelf);
  first_layer.speculative_draft_layers = 1;
  EngineConfig quantized = drafting(c, SpeculativeMethod::kSelf);
  quantized.speculative_draft_weight_dtype = WeightDtype::kQ8_0;
  EngineConfig adaptive = drafting(c, SpeculativeMethod::kDraftModel, draft_files().unrelated);
  adaptive.speculative_adaptive = true;
  const std::vector<Draft> drafts = {
      {"identical GGUF", drafting(c, SpeculativeMethod::kDraftModel, draft_files().same), 0.99, 1},
      {"self, q8_0 copy", quantized, 0.5, 1},
      {"self, first layer", first_layer, 0.0, 1},
      {"unrelated GGUF", drafting(c, SpeculativeMethod::kDraftModel, draft_files().unrelated), 0,
       0.1},
      {"unrelated, adaptive", adaptive, 0, 0.1}};
  for (const Draft& d : drafts) {
    INFO("draft: " << d.name);
    const SpecRun spec = run_prompts(d.config, prompts, params);
    CHECK(spec.tokens == plain.tokens);
    INFO("drafts " << spec.stats.spec_num_draft_tokens << ", accepted "
                   << spec.stats.spec_num_accepted_tokens);
    REQUIRE(spec.stats.spec_num_draft_tokens > 0);
    CHECK(acceptance(spec.stats) >= d.min_acceptance);
    CHECK(acceptance(spec.stats) <= d.max_acceptance);
    CHECK(spec.stats.spec_propose_ns > 0);
    CHECK(spec.stats.memory.weights_bytes > plain.stats.memory.weights_bytes);
    if (d.name == "unrelated, adaptive") {
      // Rejected at once, the proposal shrinks to one token: far fewer drafts than 4 a step.
      CHECK(spec.stats.spec_num_draft_tokens < spec.stats.spec_num_drafts * 2);
    }
  }
}

TEST_CASE("sampled requests with a draft model keep the target's distribution",
          "[engine][speculative]") {
  // Rejection sampling with the draft's own distribution q: accept min(1, p/q), else draw from
  // norm(max(0, p - q)). A draft close to the target (its q8_0 copy) and an unrelated one both
  // give the target's token distribution at output positions 1-3 (two-sample chi-square, alpha
  // 0.001); seeds reproduce.
  SamplingParams p = fixed_tokens(4);
  p.temperature = 1.0f;
  p.top_k = 8;
  EngineConfig c;
  c.num_kv_blocks = 512;
  c.max_num_seqs = 64;
  const std::vector<Tokens> prompts(1200, Tokens{1, 7, 9, 30, 31, 7, 9});
  const SpecRun plain = run_prompts(c, prompts, p, /*seed_each=*/true);
  EngineConfig quantized = drafting(c, SpeculativeMethod::kSelf);
  quantized.speculative_draft_weight_dtype = WeightDtype::kQ8_0;
  const EngineConfig unrelated =
      drafting(c, SpeculativeMethod::kDraftModel, draft_files().unrelated);
  for (const EngineConfig& config : {quantized, unrelated}) {
    INFO("draft " << (config.speculative_method == SpeculativeMethod::kSelf ? "q8_0 copy"
                                                                            : "unrelated"));
    const SpecRun spec = run_prompts(config, prompts, p, true);
    const SpecRun again = run_prompts(config, prompts, p, true);
    CHECK(spec.tokens == again.tokens);
    INFO("acceptance " << acceptance(spec.stats));
    if (config.speculative_method == SpeculativeMethod::kSelf) {
      CHECK(acceptance(spec.stats) > 0.8);
    } else {
      CHECK(acceptance(spec.stats) < 0.5);
    }
    for (size_t pos = 1; pos < 4; ++pos) check_same_distribution(plain.tokens, spec.tokens, pos);
  }
}

TEST_CASE("a draft identical to the target always stands, sampled too", "[engine][speculative]") {
  SamplingParams p = fixed_tokens(12);
  p.temperature = 1.0f;
  EngineConfig c = drafting(EngineConfig(), SpeculativeMethod::kDraftModel, draft_files().same);
  c.num_kv_blocks = 256;
  const SpecRun spec = run_prompts(c, std::vector<Tokens>(16, Tokens{1, 5, 6, 7}), p, true);
  INFO("drafts " << spec.stats.spec_num_draft_tokens << ", accepted "
                 << spec.stats.spec_num_accepted_tokens);
  CHECK(acceptance(spec.stats) > 0.99);
}

TEST_CASE("draft model settings are checked", "[engine][speculative]") {
  EngineConfig c;
  c.speculative_method = SpeculativeMethod::kDraftModel;
  CHECK_THROWS_WITH(
      c.validate(),
      Catch::Contains("speculative.draft_model = \"\" (allowed: a model (preset name, "
                      ".gguf file or safetensors directory) exactly when"));
  c.speculative_method = SpeculativeMethod::kNgram;
  c.speculative_draft_model = "tiny";
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("speculative.draft_model = \"tiny\""));
  c.speculative_draft_model.clear();
  c.speculative_draft_layers = 1;
  CHECK_THROWS_WITH(c.validate(), Catch::Contains("speculative.draft_layers = 1 (allowed: 0 "
                                                  "unless speculative.method is self)"));
  c.num_threads = 1;
  c.num_kv_blocks = 64;
  c.speculative_method = SpeculativeMethod::kSelf;
  c.speculative_draft_layers = 3;  // the target has 2
  CHECK_THROWS_WITH(Engine(c, spec_target()),
                    Catch::Contains("speculative.draft_layers = 3 (allowed: 0..2"));
  c.speculative_method = SpeculativeMethod::kDraftModel;
  c.speculative_draft_layers = 0;
  c.speculative_draft_model = "tiny";  // the tiny preset's vocabulary is not 512 tokens
  CHECK_THROWS_WITH(Engine(c, spec_target()),
                    Catch::Contains("speculative.draft_model 'tiny': a vocabulary of"));
  c.speculative_draft_model = draft_files().dir.file("missing.gguf");
  CHECK_THROWS_WITH(Engine(c, spec_target()), Catch::Contains("missing.gguf"));
}
