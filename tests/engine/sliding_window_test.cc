// Sliding-window attention (Mistral's): the reference's window is Hugging Face's (each position
// sees itself and the window - 1 before it), the optimized forward matches the reference at any
// chunking, and the engine frees the KV blocks behind every window, so sequences far longer than
// their share of the pool run without preemption and produce the reference's greedy tokens.
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

#include "chunked_forward.h"
#include "engine/core/engine.h"
#include "engine/forward/reference_forward.h"
#include "engine/forward/transformer.h"
#include "engine/model/gguf_reader.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/hf_config.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "model_formats_util.h"
#include "progress_watchdog.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

ModelConfig windowed(int window, int layers = 2) {
  ModelConfig c = micro_config();
  c.name = "mistral-micro";
  c.architecture = "mistral";
  c.num_layers = layers;
  c.sliding_window = window;
  return c;
}

std::vector<int32_t> tokens(int n, int salt = 0) {
  std::vector<int32_t> t;
  for (int i = 0; i < n; ++i) t.push_back((i * 37 + 5 + salt * 11) % 300);
  return t;
}

std::vector<float> row(const std::vector<float>& logits, int64_t r, int vocab) {
  return {logits.begin() + r * vocab, logits.begin() + (r + 1) * vocab};
}

}  // namespace

TEST_CASE("a one-layer model's window of W sees the last W tokens: RoPE is relative",
          "[model][window]") {
  // With one layer, position t's output depends on tokens (t - W, t] only, and RoPE makes it
  // independent of where they sit: full attention over just those W tokens gives it too.
  const int window = 6;
  const ModelWeights w = make_synthetic_model(windowed(window, 1), 31);
  ModelConfig full_config = w.config;
  full_config.sliding_window = 0;
  ModelWeights full = make_synthetic_model(full_config, 31);
  const std::vector<int32_t> t = tokens(20);
  const std::vector<float> logits = reference_forward(w, t);
  const int vocab = w.config.vocab_size;
  for (int end = window; end <= 20; ++end) {
    const std::vector<int32_t> last(t.begin() + end - window, t.begin() + end);
    const std::vector<float> alone = reference_forward(full, last);
    CAPTURE(end);
    CHECK(max_abs_difference(row(logits, end - 1, vocab), row(alone, window - 1, vocab)) < 1e-4);
  }
  // And it is not full attention.
  CHECK(max_abs_difference(logits, reference_forward(full, t)) > 0.1);
}

TEST_CASE("the optimized forward honours the window as the reference does, chunked or not",
          "[model][window]") {
  const int window = GENERATE(1, 5, 8, 64);
  CAPTURE(window);
  const ModelWeights w = make_synthetic_model(windowed(window), 33);
  const std::vector<int32_t> t = tokens(90);
  const std::vector<float> ref = reference_forward(w, t);
  for (int chunk : {90, 7, 1}) {
    CAPTURE(chunk);
    CHECK(max_abs_difference(chunked_forward(w, t, chunk), ref) < 1e-4);
  }
}

TEST_CASE("the engine frees the blocks behind each window and still decodes the reference's tokens",
          "[engine][window]") {
  ModelConfig c = windowed(8);
  c.max_position_embeddings = 64;
  const ModelWeights w = make_synthetic_model(c, 35);
  // Greedy by the reference, one token at a time.
  const std::vector<int32_t> prompt = tokens(12);
  std::vector<int32_t> seq = prompt;
  while (seq.size() < 60) {
    const std::vector<float> logits = reference_forward(w, seq);
    const auto last = logits.end() - c.vocab_size;
    seq.push_back(int32_t(std::max_element(last, logits.end()) - last));
  }
  const std::vector<int32_t> want(seq.begin() + ptrdiff_t(prompt.size()), seq.end());

  // 16 blocks of 4 tokens: one 60-token sequence's worth. Four at once fit only because each
  // holds its window (8 tokens) plus the block being written.
  EngineConfig config;
  config.num_threads = 2;
  config.block_size = 4;
  config.num_kv_blocks = 16;
  config.max_num_batched_tokens = 8;  // prompts in chunks: windows slide during prefill too
  SamplingParams greedy;
  greedy.max_tokens = 48;
  greedy.ignore_eos = true;
  Engine engine(config, w);
  const std::vector<WatchedResult> got =
      generate_watched(engine, {prompt, prompt, prompt, prompt}, greedy);
  for (const WatchedResult& r : got) {
    CHECK(r.token_ids == want);
    CHECK(r.num_preemptions == 0);
  }
  engine.check_invariants();
  CHECK(engine.stats().kv_usage == 0.0);

  // Without the window the same pool must preempt: the freeing is what made room.
  ModelWeights full = make_synthetic_model(c, 35);
  full.config.sliding_window = 0;
  Engine plain(config, full);
  generate_watched(plain, {prompt, prompt, prompt, prompt}, greedy);
  CHECK(plain.stats().num_preemptions > 0);
}

TEST_CASE("config.json's sliding window: Mistral's always, Qwen's with use_sliding_window",
          "[model][window]") {
  nlohmann::json j = nlohmann::json::parse(hf_config_json(windowed(4096), DType::kF32));
  CHECK(j["architectures"][0] == "MistralForCausalLM");
  CHECK(parse_hf_config(j.dump(), "config.json").sliding_window == 4096);
  j["sliding_window"] = nullptr;
  CHECK(parse_hf_config(j.dump(), "config.json").sliding_window == 0);

  j["architectures"] = {"Qwen2ForCausalLM"};
  j["sliding_window"] = 4096;  // Qwen2.5 ships this with use_sliding_window false
  CHECK(parse_hf_config(j.dump(), "config.json").sliding_window == 0);
  j["use_sliding_window"] = true;
  j["max_window_layers"] = 0;
  CHECK(parse_hf_config(j.dump(), "config.json").sliding_window == 4096);
  j["max_window_layers"] = 1;  // layer 0 full, layer 1 sliding
  CHECK_THROWS_WITH(parse_hf_config(j.dump(), "config.json"),
                    Catch::Contains("unsupported max_window_layers 1 of 2 layers"));
}

TEST_CASE("the sliding window survives GGUF and safetensors round trips", "[model][window]") {
  const ModelWeights w = make_synthetic_model(windowed(5), 37);
  const std::vector<int32_t> t = tokens(24);
  const std::vector<float> want = reference_forward(w, t);
  TempDir dir;
  write_gguf(w, dir.file("w.gguf"));
  CHECK(read_gguf(dir.file("w.gguf")).config.sliding_window == 5);
  REQUIRE(reference_forward(read_gguf(dir.file("w.gguf")), t) == want);
  write_safetensors(w, dir.file("st"));
  CHECK(read_safetensors(dir.file("st")).config.sliding_window == 5);
  REQUIRE(reference_forward(read_safetensors(dir.file("st")), t) == want);
}
