// RoPE scaling: each type's frequencies by hand from its definition, config.json and GGUF
// round trips, and the optimized forward against the reference on every scaled architecture.
// (llama.cpp's agreement on the same models is ci/interop-llama-cpp.sh's "shape-" cases.)
#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <numbers>

#include "chunked_forward.h"
#include "engine/forward/reference_forward.h"
#include "engine/forward/transformer.h"
#include "engine/model/gguf_reader.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/hf_config.h"
#include "engine/model/mapped_file.h"
#include "engine/model/rope_scaling.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "engine/model/synthetic_model.h"
#include "model_formats_util.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

// head_dim 128 (as the 7-8B models have), `theta`, and scaling `type` by `factor` from
// `context` original positions.
ModelConfig head128(float theta, const char* type, double factor, int context) {
  ModelConfig c = micro_config();
  c.hidden_size = 512;
  c.head_dim = 128;
  c.rope_theta = theta;
  c.max_position_embeddings = context;
  c.rope_scaling.type = type;
  c.rope_scaling.factor = factor;
  c.rope_scaling.original_max_position_embeddings = context;
  return c;
}

// Llama 3.1 8B's RoPE (low_freq_factor 1 and high_freq_factor 4 are RopeScaling's defaults).
ModelConfig llama31() { return head128(500000.0f, "llama3", 8, 8192); }
// Qwen2.5's YaRN.
ModelConfig qwen25_yarn() { return head128(1000000.0f, "yarn", 4, 32768); }

double plain(const ModelConfig& c, int i, double theta = 0) {
  return std::pow(theta > 0 ? theta : double(c.rope_theta), -2.0 * i / c.head_dim);
}

const std::vector<int32_t> kLongTokens = [] {
  std::vector<int32_t> t;
  for (int i = 0; i < 40; ++i) t.push_back((i * 37 + 5) % 300);
  return t;
}();

}  // namespace

TEST_CASE("RoPE scaling types compute the frequencies of their definitions", "[model][rope]") {
  SECTION("none is plain RoPE, bit for bit") {
    const ModelConfig c = micro_config();
    CHECK(rope_frequencies(c) == RopeFrequencies::plain(c.head_dim, c.rope_theta));
  }
  SECTION("linear divides every frequency by the factor") {
    ModelConfig c = micro_config();
    c.rope_scaling.type = "linear";
    c.rope_scaling.factor = 4;
    const RopeFrequencies f = rope_frequencies(c);
    for (int i = 0; i < c.head_dim / 2; ++i) CHECK(f.inv_freq[size_t(i)] == float(plain(c, i) / 4));
    CHECK(f.scale == 1.0f);
  }
  SECTION("dynamic is plain RoPE over vLLM's NTK base for factor x the context") {
    ModelConfig c = micro_config();
    c.rope_scaling.type = "dynamic";
    c.rope_scaling.factor = 2;
    const double base = 10000.0 * std::pow(2.0 * 2 - 2 + 1, 16.0 / 14.0);
    CHECK(dynamic_ntk_base(c) == Approx(base).epsilon(1e-12));
    const RopeFrequencies f = rope_frequencies(c);
    for (int i = 0; i < c.head_dim / 2; ++i) {
      CHECK(f.inv_freq[size_t(i)] == float(plain(c, i, base)));
    }
  }
  SECTION("llama3 keeps short wavelengths, slows long ones by the factor, blends between") {
    const ModelConfig c = llama31();
    const RopeFrequencies f = rope_frequencies(c);
    int kept = 0, slowed = 0, blended = 0;
    for (int i = 0; i < 64; ++i) {
      const double inv = plain(c, i), wavelen = 2 * std::numbers::pi / inv;
      const double got = f.inv_freq[size_t(i)];
      if (wavelen < 8192.0 / 4) {
        CHECK(got == float(inv));
        ++kept;
      } else if (wavelen > 8192.0 / 1) {
        CHECK(got == float(inv / 8));
        ++slowed;
      } else {
        const double smooth = (8192.0 / wavelen - 1) / (4 - 1);
        CHECK(got == Approx((1 - smooth) * inv / 8 + smooth * inv).epsilon(1e-6));
        ++blended;
      }
    }
    CHECK(kept > 0);  // Llama 3.1's 64 pairs fall in all three ranges
    CHECK(slowed > 0);
    CHECK(blended > 0);
    // As llama.cpp's converter writes them: plain frequencies divided by rope_freqs.
    const std::vector<float> factors = llama3_frequency_factors(c);
    for (int i = 0; i < 64; ++i) {
      CHECK(plain(c, i) / factors[size_t(i)] == Approx(f.inv_freq[size_t(i)]).epsilon(1e-6));
    }
    CHECK(factors.front() == 1.0f);
    CHECK(factors.back() == 8.0f);
  }
  SECTION("yarn extrapolates below the correction range, interpolates above, scales cos/sin") {
    const ModelConfig c = qwen25_yarn();
    const RopeFrequencies f = rope_frequencies(c);
    // Correction dims: d * ln(32768 / (beta * 2 pi)) / (2 ln theta) for beta 32 and 1.
    auto dim = [](double beta) {
      return 128 * std::log(32768 / (beta * 2 * std::numbers::pi)) / (2 * std::log(1e6));
    };
    const int low = int(std::floor(dim(32))), high = int(std::ceil(dim(1)));
    REQUIRE(low == 23);
    REQUIRE(high == 40);
    for (int i = 0; i < 64; ++i) {
      const double ramp = std::clamp((i - low) / double(high - low), 0.0, 1.0);
      const double want = plain(c, i) / 4 * ramp + plain(c, i) * (1 - ramp);
      CHECK(f.inv_freq[size_t(i)] == Approx(want).epsilon(1e-6));
    }
    CHECK(f.inv_freq[0] == float(plain(c, 0)));
    CHECK(f.inv_freq[63] == float(plain(c, 63) / 4));
    CHECK(f.scale == Approx(0.1 * std::log(4.0) + 1));
  }
  SECTION("llama.cpp's rope_freqs divide the frequencies on top of the type") {
    ModelConfig c = micro_config();
    c.rope_scaling.freq_factors.assign(size_t(c.head_dim / 2), 2.0f);
    const RopeFrequencies f = rope_frequencies(c);
    for (int i = 0; i < c.head_dim / 2; ++i) CHECK(f.inv_freq[size_t(i)] == float(plain(c, i) / 2));
  }
}

TEST_CASE("config.json's rope_scaling and transformers 5's rope_parameters are read",
          "[model][rope]") {
  const ModelConfig base = micro_config();
  nlohmann::json j = nlohmann::json::parse(hf_config_json(base, DType::kF32));
  j["rope_scaling"] = {{"rope_type", "llama3"},
                       {"factor", 8.0},
                       {"low_freq_factor", 1.0},
                       {"high_freq_factor", 4.0},
                       {"original_max_position_embeddings", 8192}};
  const ModelConfig llama3 = parse_hf_config(j.dump(), "config.json");
  CHECK(llama3.rope_scaling.type == "llama3");
  CHECK(llama3.rope_scaling.original_max_position_embeddings == 8192);
  // Written back as it was read.
  CHECK(parse_hf_config(hf_config_json(llama3, DType::kF32), "again.json").rope_scaling ==
        llama3.rope_scaling);

  j.erase("rope_scaling");
  j.erase("rope_theta");
  j["rope_parameters"] = {{"rope_type", "yarn"}, {"rope_theta", 1e6}, {"factor", 4.0}};
  const ModelConfig yarn = parse_hf_config(j.dump(), "config.json");
  CHECK(yarn.rope_theta == 1e6f);
  CHECK(yarn.rope_scaling.type == "yarn");
  CHECK(yarn.rope_scaling.original_max_position_embeddings == 0);  // max_position_embeddings

  j["rope_parameters"] = {{"rope_type", "default"}, {"rope_theta", 5e5}};
  const ModelConfig plain_rope = parse_hf_config(j.dump(), "config.json");
  CHECK(plain_rope.rope_scaling.type == "none");
  CHECK(plain_rope.rope_theta == 5e5f);
}

TEST_CASE("RoPE scaling survives GGUF and safetensors round trips", "[model][rope][gguf]") {
  const std::string type = GENERATE("linear", "yarn", "llama3", "dynamic");
  CAPTURE(type);
  ModelConfig c = micro_config();
  c.rope_scaling.type = type;
  c.rope_scaling.factor = 4;
  if (type != "linear") c.rope_scaling.original_max_position_embeddings = 64;
  const ModelWeights w = make_synthetic_model(c, 21);
  const std::vector<float> want = reference_forward(w, kLongTokens);
  TempDir dir;
  write_safetensors(w, dir.file("st"));
  const ModelWeights st = read_safetensors(dir.file("st"));
  CHECK(st.config.rope_scaling == c.rope_scaling);
  REQUIRE(reference_forward(st, kLongTokens) == want);

  write_gguf(w, dir.file("m.gguf"));
  const ModelWeights g = read_gguf(dir.file("m.gguf"));
  if (type == "linear" || type == "yarn") {  // GGUF keys of their own: exact
    CHECK(g.config.rope_scaling.type == type);
    REQUIRE(reference_forward(g, kLongTokens) == want);
  } else {  // llama3 as rope_freqs, dynamic as its base: the same frequencies, rounded
    CHECK(g.config.rope_scaling.type == "none");
    CHECK(g.config.rope_scaling.freq_factors.empty() == (type == "dynamic"));
    const RopeFrequencies a = rope_frequencies(c), b = rope_frequencies(g.config);
    for (size_t i = 0; i < a.inv_freq.size(); ++i) {
      CHECK(b.inv_freq[i] == Approx(a.inv_freq[i]).epsilon(1e-6));
    }
    CHECK(max_abs_difference(reference_forward(g, kLongTokens), want) < 1e-3);
  }
}

TEST_CASE("scaled RoPE and Qwen3's q/k norms run the optimized forward as the reference does",
          "[model][rope]") {
  ModelConfig c = micro_config();
  c.num_layers = 2;
  SECTION("yarn with Qwen2 biases") {
    c.rope_scaling.type = "yarn";
    c.rope_scaling.factor = 4;
    c.rope_scaling.original_max_position_embeddings = 64;
    c.attention_bias = true;
  }
  SECTION("llama3") {
    c.rope_scaling.type = "llama3";
    c.rope_scaling.factor = 8;
    c.rope_scaling.original_max_position_embeddings = 64;
  }
  SECTION("qwen3: q/k norms and head_dim 24 != 64 / 4") {
    c.architecture = "qwen3";
    c.qk_norm = true;
    c.head_dim = 24;
  }
  const ModelWeights w = make_synthetic_model(c, 23);
  const std::vector<float> ref = reference_forward(w, kLongTokens);
  for (int chunk : {40, 7}) {
    CAPTURE(chunk);
    CHECK(max_abs_difference(chunked_forward(w, kLongTokens, chunk), ref) < 1e-4);
  }
}

TEST_CASE("Qwen3 round trips through GGUF (arch qwen3, q/k in HF order) and safetensors",
          "[model][gguf][safetensors]") {
  ModelConfig c = micro_config();
  c.architecture = "qwen3";
  c.qk_norm = true;
  c.head_dim = 24;
  c.tie_word_embeddings = true;
  const ModelWeights w = make_synthetic_model(c, 25);
  const std::vector<float> want = reference_forward(w, kLongTokens);
  TempDir dir;
  write_gguf(w, dir.file("q3.gguf"));
  const ModelWeights g = read_gguf(dir.file("q3.gguf"));
  CHECK(g.config.qk_norm);
  CHECK(g.config.architecture == "qwen3");
  CHECK(g.config.head_dim == 24);
  REQUIRE(reference_forward(g, kLongTokens) == want);
  write_safetensors(w, dir.file("q3"));
  CHECK(read_text_file(dir.file("q3/config.json")).find("Qwen3ForCausalLM") != std::string::npos);
  const ModelWeights st = read_safetensors(dir.file("q3"));
  CHECK(st.config.qk_norm);
  REQUIRE(reference_forward(st, kLongTokens) == want);
}
