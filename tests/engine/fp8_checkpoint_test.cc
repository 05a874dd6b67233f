// FP8 checkpoints as Hugging Face tools write them (engine/model/hf_fp8.h): every scale layout
// loads with the file's codes and scales as they are, the writer's checkpoint reads back byte for
// byte, the optimized forward agrees with the reference on fp8 weights, and bad files are
// refused by tensor or field.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <map>
#include <nlohmann/json.hpp>

#include "chunked_forward.h"
#include "engine/forward/reference_forward.h"
#include "engine/model/hf_config.h"
#include "engine/model/mapped_file.h"
#include "engine/model/model_load_error.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "engine/model/synthetic_model.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/fp8_e4m3.h"
#include "kernels/cpu/fp8_kernels.h"
#include "model_formats_util.h"

using namespace infergate;
using namespace infergate::testing;
using nlohmann::json;

namespace {

const std::vector<int32_t> kPrompt = {1, 17, 300, 44, 9, 250, 511, 3, 128, 77};

// Every matrix whole 128-value blocks (hidden 256, q 256, kv 128, ffn 384).
ModelConfig fp8_config(bool moe) {
  ModelConfig c;
  c.name = moe ? "fp8-moe" : "fp8-dense";
  c.vocab_size = 512;
  c.hidden_size = 256;
  c.num_layers = 2;
  c.num_heads = 4;
  c.num_kv_heads = 2;
  c.head_dim = 64;
  c.intermediate_size = moe ? 0 : 384;
  c.max_position_embeddings = 256;
  if (moe) {
    c.moe.num_experts = 4;
    c.moe.top_k = 2;
    c.moe.expert_intermediate_size = 256;
  }
  return c;
}

// A scheme as a test spells it: the config's quantization_config, the scale tensor's name and
// the block of values one scale covers (0 rows: the whole tensor; 1 x in: a channel).
struct Scheme {
  std::string label;
  json config;
  std::string scale_name;
  int64_t block_rows = 0, block_cols = 0;  // 0, 0: per tensor; -1, -1: per channel
};

std::vector<Scheme> schemes() {
  const json block = {{"quant_method", "fp8"},
                      {"fmt", "e4m3"},
                      {"activation_scheme", "dynamic"},
                      {"weight_block_size", {128, 128}}};
  const json block64 = {{"quant_method", "fp8"}, {"weight_block_size", {64, 128}}};
  const json autofp8 = {{"quant_method", "fp8"}, {"activation_scheme", "static"}};
  const json fbgemm = {{"quant_method", "fbgemm_fp8"}, {"activation_scale_ub", 1200.0}};
  auto ct = [](const std::string& strategy) {
    json w = {{"num_bits", 8}, {"type", "float"}, {"symmetric", true}, {"strategy", strategy}};
    if (strategy == "block") w["block_structure"] = {128, 128};
    return json{
        {"quant_method", "compressed-tensors"},
        {"format", "float-quantized"},
        {"config_groups",
         {{"group_0",
           {{"targets", {"Linear"}},
            {"weights", w},
            {"input_activations",
             {{"num_bits", 8}, {"type", "float"}, {"strategy", "token"}, {"dynamic", true}}}}}}},
        {"ignore", {"lm_head"}}};
  };
  return {{"DeepSeek-V3 blocks", block, "weight_scale_inv", 128, 128},
          {"64x128 blocks", block64, "weight_scale_inv", 64, 128},
          {"AutoFP8 per tensor", autofp8, "weight_scale", 0, 0},
          {"fbgemm per channel", fbgemm, "weight_scale", -1, -1},
          {"compressed-tensors tensor", ct("tensor"), "weight_scale", 0, 0},
          {"compressed-tensors channel", ct("channel"), "weight_scale", -1, -1},
          {"compressed-tensors block", ct("block"), "weight_scale", 128, 128}};
}

struct RawTensor {
  std::string dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
};
using RawTensors = std::map<std::string, RawTensor>;

template <typename T>
RawTensor raw(const std::string& dtype, std::vector<int64_t> shape, const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return {dtype, std::move(shape), std::vector<uint8_t>(p, p + v.size() * sizeof(T))};
}

// One matrix quantized by `s` the way the tools do (scale = amax / 448 over what it covers);
// `expected` gets its values as the loader must give them: scale * e4m3(code).
void add_quantized(RawTensors& out, const std::string& base, const Tensor& w, const Scheme& s,
                   std::vector<float>& expected) {
  const int64_t n = w.dim(0), k = w.dim(1);
  const float* x = w.data<float>();
  const int64_t bn = s.block_rows > 0 ? s.block_rows : s.block_rows == 0 ? n : 1;
  const int64_t bk = s.block_rows > 0 ? s.block_cols : k;
  const int64_t tiles_r = (n + bn - 1) / bn, tiles_c = (k + bk - 1) / bk;
  std::vector<float> scales(size_t(tiles_r * tiles_c));
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = 0; c < k; ++c) {
      float& sc = scales[size_t((r / bn) * tiles_c + c / bk)];
      sc = std::max(sc, std::fabs(x[r * k + c]) / kFp8E4M3Max);
    }
  }
  std::vector<uint8_t> codes(size_t(n * k));
  expected.resize(size_t(n * k));
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t c = 0; c < k; ++c) {
      const float sc = scales[size_t((r / bn) * tiles_c + c / bk)];
      codes[size_t(r * k + c)] = f32_to_fp8_e4m3(x[r * k + c] / sc);
      expected[size_t(r * k + c)] = sc * fp8_e4m3_to_f32(codes[size_t(r * k + c)]);
    }
  }
  out[base + ".weight"] = raw("F8_E4M3", {n, k}, codes);
  std::vector<int64_t> scale_shape = {tiles_r, tiles_c};
  if (s.block_rows == 0) scale_shape = {};
  if (s.block_rows < 0) scale_shape = {n, 1};
  out[base + "." + s.scale_name] = raw("F32", scale_shape, scales);
  if (s.label == "AutoFP8 per tensor")
    out[base + ".input_scale"] = raw("F32", {}, std::vector<float>{0.02f});
}

bool is_projection(const std::string& name) {
  return name.find("_proj.") != std::string::npos || name.find(".experts.") != std::string::npos;
}

void write_raw(const std::string& dir, const ModelConfig& c, const RawTensors& tensors,
               const json& quantization) {
  std::filesystem::create_directories(dir);
  json header = json::object();
  std::vector<uint8_t> data;
  for (const auto& [name, t] : tensors) {
    header[name] = {{"dtype", t.dtype},
                    {"shape", t.shape},
                    {"data_offsets", {data.size(), data.size() + t.bytes.size()}}};
    data.insert(data.end(), t.bytes.begin(), t.bytes.end());
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  std::vector<uint8_t> file(8);
  const uint64_t n = text.size();
  std::memcpy(file.data(), &n, 8);
  file.insert(file.end(), text.begin(), text.end());
  file.insert(file.end(), data.begin(), data.end());
  write_bytes(dir + "/model.safetensors", file);
  json config = json::parse(hf_config_json(c, DType::kF32));
  if (!quantization.is_null()) config["quantization_config"] = quantization;
  write_text(dir + "/config.json", config.dump(2));
}

// The f32 model's tensors with every projection quantized by `s`; `expected` (a fresh copy of
// the same synthetic model) gets the values the loader must produce, as f32.
RawTensors quantized_checkpoint(const ModelWeights& w, const Scheme& s, ModelWeights& expected) {
  RawTensors out;
  std::map<std::string, std::vector<float>> values;
  w.for_each_tensor([&](const std::string& name, const Tensor& t) {
    if (is_projection(name)) {
      add_quantized(out, name.substr(0, name.size() - 7), t, s, values[name]);
    } else {
      std::vector<float> v(t.data<float>(), t.data<float>() + t.numel());
      out[name] = raw("F32", t.shape(), v);
    }
  });
  expected.for_each_tensor([&](const std::string& name, const Tensor& t) {
    if (is_projection(name)) {
      std::memcpy(const_cast<Tensor&>(t).mutable_raw(), values[name].data(), t.nbytes());
    }
  });
  return out;
}

void require_load_error(const std::string& dir, const std::string& problem) {
  REQUIRE_THROWS_WITH(read_safetensors(dir), Catch::Contains(problem));
}

}  // namespace

TEST_CASE("fp8 checkpoints load with every scale layout, codes and scales as they are",
          "[model][safetensors][fp8]") {
  const bool moe = GENERATE(false, true);
  for (const Scheme& s : schemes()) {
    CAPTURE(moe, s.label);
    const ModelWeights w = make_synthetic_model(fp8_config(moe), 21);
    ModelWeights expected = make_synthetic_model(fp8_config(moe), 21);
    const RawTensors tensors = quantized_checkpoint(w, s, expected);
    TempDir dir;
    write_raw(dir.file("ckpt"), w.config, tensors, s.config);
    const ModelWeights back = read_safetensors(dir.file("ckpt"));
    REQUIRE(back.layers[0].wq.dtype() == DType::kFP8);
    REQUIRE(back.lm_head.dtype() == DType::kF32);  // left unquantized, as the tools leave it
    // The reference forward dequantizes with to_f32: equal logits mean equal values.
    REQUIRE(reference_forward(back, kPrompt) == reference_forward(expected, kPrompt));
  }
}

TEST_CASE("quantize --to fp8's checkpoint reads back byte for byte", "[model][safetensors][fp8]") {
  ModelWeights w = make_synthetic_model(fp8_config(false), 22);
  w.convert_matrices_fp8();
  CHECK(w.layers[1].ffn.down.dtype() == DType::kFP8);
  CHECK(w.embed.dtype() == DType::kBF16);
  TempDir dir;
  write_safetensors(w, dir.file("ckpt"));
  const json config = json::parse(read_text_file(dir.file("ckpt") + "/config.json"));
  CHECK(config["quantization_config"]["quant_method"] == "fp8");
  CHECK(config["quantization_config"]["weight_block_size"] == json({128, 128}));
  const ModelWeights back = read_safetensors(dir.file("ckpt"));
  for (const Tensor* t : {&back.layers[0].wq, &back.layers[0].wo, &back.layers[1].ffn.gate}) {
    CHECK(t->dtype() == DType::kFP8);
  }
  REQUIRE(back.layers[0].wv.nbytes() == w.layers[0].wv.nbytes());
  CHECK(std::memcmp(back.layers[0].wv.raw(), w.layers[0].wv.raw(), w.layers[0].wv.nbytes()) == 0);
  CHECK(std::memcmp(back.layers[1].ffn.up.raw(), w.layers[1].ffn.up.raw(),
                    w.layers[1].ffn.up.nbytes()) == 0);
  REQUIRE(reference_forward(back, kPrompt) == reference_forward(w, kPrompt));
}

// How far the optimized forward's logits may be from the reference's. The fp8 kernels' products
// are exact, so only summation order differs (6e-6 here at avx2); where the active level's
// kernels round the activations to bf16 (fp8_bf16.cc), the logits move by up to 1% of the
// largest (0.06 and 0.1 of 12.9 and 10.3 on Zen 5), so that level is held to 2%. The engine
// suite's run at avx2 holds the exact kernels to the tight bound.
namespace {
double fp8_forward_tolerance(const std::vector<float>& ref) {
  if (!detail::fp8_kernels_for(active_isa()).bf16_activations) return 1e-3;
  double largest = 0;
  for (float v : ref) largest = std::max(largest, double(std::fabs(v)));
  return 0.02 * largest;
}
}  // namespace

TEST_CASE("the optimized forward on fp8 weights matches the reference forward", "[model][fp8]") {
  for (bool moe : {false, true}) {
    ModelWeights w = make_synthetic_model(fp8_config(moe), 23);
    w.convert_matrices(DType::kFP8);  // --weight-dtype fp8: every matrix, the LM head included
    REQUIRE(w.lm_head.dtype() == DType::kFP8);
    const std::vector<float> ref = reference_forward(w, kPrompt);
    for (int chunk : {10, 3, 1}) {
      INFO("moe " << moe << " chunk " << chunk);
      REQUIRE(max_abs_difference(chunked_forward(w, kPrompt, chunk), ref) <
              fp8_forward_tolerance(ref));
    }
  }
}

TEST_CASE("bad fp8 checkpoints are refused by tensor and rule",
          "[model][safetensors][fp8][errors]") {
  const ModelWeights w = make_synthetic_model(fp8_config(false), 24);
  const Scheme block = schemes()[0];
  const std::string q = "model.layers.0.self_attn.q_proj";
  ModelWeights expected = make_synthetic_model(fp8_config(false), 24);
  TempDir dir;
  const std::string ckpt = dir.file("ckpt");
  SECTION("a scale tensor of the wrong shape") {
    RawTensors t = quantized_checkpoint(w, block, expected);
    t[q + ".weight_scale_inv"] = raw("F32", {1, 2}, std::vector<float>(2, 0.01f));
    write_raw(ckpt, w.config, t, block.config);
    require_load_error(ckpt, "tensor '" + q +
                                 ".weight_scale_inv' is [1, 2], expected [2, 2] "
                                 "(blocks of [128, 128] over [256, 256])");
  }
  SECTION("a per-channel scale of the wrong length") {
    const Scheme channel = schemes()[3];
    RawTensors t = quantized_checkpoint(w, channel, expected);
    t[q + ".weight_scale"] = raw("F32", {128, 1}, std::vector<float>(128, 0.01f));
    write_raw(ckpt, w.config, t, channel.config);
    require_load_error(ckpt, "'" + q + ".weight_scale' is [128, 1], expected [256, 1]");
  }
  SECTION("a missing scale") {
    RawTensors t = quantized_checkpoint(w, block, expected);
    t.erase(q + ".weight_scale_inv");
    write_raw(ckpt, w.config, t, block.config);
    require_load_error(ckpt, "missing tensor '" + q + ".weight_scale_inv'");
  }
  SECTION("a NaN code") {
    RawTensors t = quantized_checkpoint(w, block, expected);
    t[q + ".weight"].bytes[5] = 0xFF;
    write_raw(ckpt, w.config, t, block.config);
    require_load_error(ckpt, "'" + q + ".weight' holds the e4m3 NaN code at [0, 5]");
  }
  SECTION("a scale that is not finite") {
    RawTensors t = quantized_checkpoint(w, block, expected);
    const float inf = INFINITY;
    std::memcpy(t[q + ".weight_scale_inv"].bytes.data() + 4, &inf, 4);
    write_raw(ckpt, w.config, t, block.config);
    require_load_error(ckpt, "scales must be finite and not negative");
  }
  SECTION("F8_E4M3 weights without a quantization_config") {
    write_raw(ckpt, w.config, quantized_checkpoint(w, block, expected), json());
    require_load_error(ckpt, "is F8_E4M3 but config.json has no FP8 quantization_config");
  }
  SECTION("a column block that is not a multiple of 128") {
    json config = block.config;
    config["weight_block_size"] = {64, 64};
    write_raw(ckpt, w.config, quantized_checkpoint(w, block, expected), config);
    require_load_error(ckpt, "quantization_config.weight_block_size [64,64] is not supported");
  }
  SECTION("e5m2 weights") {
    json config = block.config;
    config["fmt"] = "e5m2";
    write_raw(ckpt, w.config, quantized_checkpoint(w, block, expected), config);
    require_load_error(ckpt, "fmt must be \"e4m3\"");
  }
  SECTION("a compressed-tensors strategy with no FP8 layout here") {
    json config = schemes()[5].config;
    config["config_groups"]["group_0"]["weights"]["strategy"] = "group";
    write_raw(ckpt, w.config, quantized_checkpoint(w, schemes()[5], expected), config);
    require_load_error(ckpt, "strategy must be \"tensor\", \"channel\" or \"block\"");
  }
  SECTION("rows that are not whole 128-value blocks") {
    ModelConfig c = fp8_config(false);
    c.intermediate_size = 320;  // down_proj's rows: 320 values
    const ModelWeights odd = make_synthetic_model(c, 25);
    ModelWeights odd_expected = make_synthetic_model(c, 25);
    write_raw(ckpt, c, quantized_checkpoint(odd, block, odd_expected), block.config);
    require_load_error(ckpt,
                       "'model.layers.0.mlp.down_proj.weight' has rows of 320 values: fp8 "
                       "weights need whole 128-value blocks");
  }
}

TEST_CASE("fp8 rows that are not whole blocks stay bf16 when quantized", "[model][fp8]") {
  ModelConfig c = fp8_config(false);
  c.intermediate_size = 320;
  ModelWeights w = make_synthetic_model(c, 26);
  w.convert_matrices_fp8();
  CHECK(w.layers[0].ffn.up.dtype() == DType::kFP8);     // rows of 256
  CHECK(w.layers[0].ffn.down.dtype() == DType::kBF16);  // rows of 320
  TempDir dir;
  write_safetensors(w, dir.file("ckpt"));
  const ModelWeights back = read_safetensors(dir.file("ckpt"));
  CHECK(back.layers[0].ffn.down.dtype() == DType::kBF16);
  REQUIRE(reference_forward(back, kPrompt) == reference_forward(w, kPrompt));
}
