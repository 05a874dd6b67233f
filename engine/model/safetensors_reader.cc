#include "engine/model/safetensors_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"
#include "engine/model/awq_layout.h"
#include "engine/model/hf_config.h"
#include "engine/model/hf_fp8.h"
#include "engine/model/mapped_file.h"
#include "engine/model/model_load_error.h"
#include "engine/model/safetensors_file.h"
#include "engine/model/tensor_table.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

constexpr const char* kIndexFile = "model.safetensors.index.json";

// The shard files named by the index's weight_map (checked to be plain names in `dir`).
std::vector<std::string> shards_from_index(const fs::path& dir, json* weight_map) {
  const std::string index_path = (dir / kIndexFile).string();
  json index;
  try {
    index = parse_json_text(read_text_file(index_path));
  } catch (const JsonTextError& e) {
    throw ModelLoadError(index_path, std::string("not JSON ") + e.what());
  }
  if (!index.is_object() || !index.contains("weight_map") || !index["weight_map"].is_object()) {
    throw ModelLoadError(index_path, "bad index: expected {\"weight_map\": {tensor: file}}");
  }
  std::set<std::string> names;
  for (const auto& [tensor, file] : index["weight_map"].items()) {
    if (!file.is_string() || file.get<std::string>().find('/') != std::string::npos ||
        file.get<std::string>() == "..") {
      throw ModelLoadError(index_path,
                           "bad index entry for '" + tensor + "': " + json_excerpt(file));
    }
    names.insert(file.get<std::string>());
  }
  *weight_map = index["weight_map"];
  std::vector<std::string> paths;
  for (const std::string& n : names) paths.push_back((dir / n).string());
  return paths;
}

std::vector<std::string> shard_files(const fs::path& dir, json* weight_map) {
  if (fs::exists(dir / kIndexFile)) return shards_from_index(dir, weight_map);
  if (fs::exists(dir / "model.safetensors")) return {(dir / "model.safetensors").string()};
  std::vector<std::string> found;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".safetensors") found.push_back(e.path().string());
  }
  if (found.empty()) throw ModelLoadError(dir.string(), "no *.safetensors files");
  std::sort(found.begin(), found.end());
  return found;
}

TensorTable read_tensor_table(const fs::path& dir) {
  json weight_map;
  TensorTable table(dir.string());
  for (const std::string& path : shard_files(dir, &weight_map)) {
    add_safetensors_tensors(MappedFile::open(path), table);
  }
  for (const auto& [tensor, file] : weight_map.items()) {
    if (!table.contains(tensor)) {
      throw ModelLoadError(
          (dir / kIndexFile).string(),
          "missing tensor '" + tensor + "' (listed in " + file.get<std::string>() + ")");
    }
  }
  return table;
}

// An int32 tensor as its values (held as kI8 bytes, safetensors_file.h).
std::vector<int32_t> take_int32(TensorTable& t, const std::string& name,
                                const std::vector<int64_t>& shape) {
  const Tensor bytes = t.take(name, {shape[0], shape[1] * 4});
  if (bytes.dtype() != DType::kI8) {
    throw ModelLoadError(t.source(), "tensor '" + name + "' must be I32 (AWQ packed codes)");
  }
  std::vector<int32_t> v(size_t(shape[0] * shape[1]));
  std::memcpy(v.data(), bytes.raw(), v.size() * sizeof(int32_t));
  return v;
}

// An AutoAWQ linear layer (awq_layout.h) as the Q4_1 matrix [out, in].
Tensor take_awq(TensorTable& t, const std::string& base, int64_t out, int64_t in) {
  const std::vector<int64_t>& s = t.shape_of(base + ".scales");
  const int64_t groups = s.size() == 2 ? s[0] : 0;
  if (groups <= 0 || in % groups != 0 || (in / groups) % kQuantBlock != 0 || out % 8 != 0) {
    throw ModelLoadError(t.source(), "tensor '" + base + ".scales' has shape [" +
                                         (s.empty() ? "" : std::to_string(s[0])) +
                                         ", ...]: not whole AWQ groups (a multiple of 32) of " +
                                         std::to_string(in) + " inputs and " + std::to_string(out) +
                                         " outputs");
  }
  AwqTensors a{in, out, in / groups, {}, {}, {}};
  a.qweight = take_int32(t, base + ".qweight", {in, out / 8});
  a.qzeros = take_int32(t, base + ".qzeros", {groups, out / 8});
  const Tensor scales = t.take(base + ".scales", {groups, out});
  if (scales.dtype() != DType::kF16) {
    throw ModelLoadError(t.source(), "tensor '" + base + ".scales' must be F16");
  }
  a.scales.resize(size_t(groups * out));
  std::memcpy(a.scales.data(), scales.raw(), a.scales.size() * sizeof(uint16_t));
  return unpack_awq(a);
}

// AWQ tensors without the config that says how to read them would load as missing weights.
void check_no_awq_tensors(const TensorTable& t, const std::string& config_path) {
  const std::string probe = hf_layer_prefix(0) + "self_attn.q_proj.qweight";
  if (t.contains(probe)) {
    throw ModelLoadError(config_path, "the checkpoint has '" + probe +
                                          "' but no quantization_config saying its layout");
  }
}

// How config.json says the linear layers are quantized: AutoAWQ's layout, an FP8 scheme
// (hf_fp8.h), or not at all. Any other quantization_config is refused rather than misread
// (GPTQ, for one, packs its codes along the other axis).
struct CheckpointQuantization {
  bool awq = false;
  std::optional<Fp8Scheme> fp8;
};

CheckpointQuantization read_quantization(const std::string& config_text,
                                         const std::string& config_path) {
  const json config = parse_json_text(config_text);
  if (!config.is_object() || !config.contains("quantization_config")) return {};
  const json& q = config["quantization_config"];
  auto field_is = [&](const char* key, const json& want) {
    return q.is_object() && q.contains(key) && q[key] == want;
  };
  if (q.is_object() && q.contains("quant_method") && q["quant_method"].is_string() &&
      is_fp8_quant_method(q["quant_method"].get<std::string>())) {
    return {false, parse_fp8_scheme(q, config_path)};
  }
  const bool gemm = field_is("version", "gemm") || field_is("version", "GEMM");
  if (!field_is("quant_method", "awq") || !field_is("bits", 4) || !gemm ||
      (q.contains("zero_point") && !field_is("zero_point", true))) {
    throw ModelLoadError(config_path,
                         "quantization_config " + json_excerpt(q) +
                             " is not supported (allowed: quant_method \"awq\" with bits 4, "
                             "version \"gemm\", zero_point true; or an FP8 one: \"fp8\", "
                             "\"fbgemm_fp8\", \"compressed-tensors\" float-quantized)");
  }
  return {true, std::nullopt};
}

// `base`.weight, or its AWQ tensors, or its FP8 codes and scale, as the checkpoint has it.
Tensor take_linear(TensorTable& t, const std::string& base, int64_t out, int64_t in,
                   const CheckpointQuantization& q) {
  if (t.contains(base + ".qweight")) return take_awq(t, base, out, in);
  const std::string weight = base + ".weight";
  if (t.contains(weight) && t.dtype_of(weight) == DType::kF8E4M3) {
    if (!q.fp8) {
      throw ModelLoadError(t.source(), "tensor '" + weight +
                                           "' is F8_E4M3 but config.json has no FP8 "
                                           "quantization_config saying how it is scaled");
    }
    return take_fp8_linear(t, base, out, in, *q.fp8);
  }
  return t.take(weight, {out, in});
}

FfnWeights read_ffn(TensorTable& t, const std::string& p, const char* gate, const char* up,
                    const char* down, int64_t d, int64_t ff, const CheckpointQuantization& q) {
  FfnWeights f;
  f.gate = take_linear(t, p + gate, ff, d, q);
  f.up = take_linear(t, p + up, ff, d, q);
  f.down = take_linear(t, p + down, d, ff, q);
  return f;
}

void read_moe(TensorTable& t, const std::string& p, const ModelConfig& c,
              const CheckpointQuantization& q, LayerWeights& l) {
  const int64_t d = c.hidden_size, e = c.moe.num_experts;
  const std::string moe = p + "block_sparse_moe.";
  l.router = t.take_f32(moe + "gate.weight", {e, d});
  for (int64_t i = 0; i < e; ++i) {
    const std::string ep = moe + "experts." + std::to_string(i) + ".";
    l.experts.push_back(read_ffn(t, ep, "w1", "w3", "w2", d, c.moe.expert_intermediate_size, q));
  }
  if (c.moe.shared_expert_intermediate_size > 0) {
    l.shared_expert = read_ffn(t, moe + "shared_expert.", "gate_proj", "up_proj", "down_proj", d,
                               c.moe.shared_expert_intermediate_size, q);
  }
}

LayerWeights read_layer(TensorTable& t, const ModelConfig& c, const CheckpointQuantization& quant,
                        int i) {
  const std::string p = hf_layer_prefix(i);
  const int64_t d = c.hidden_size, q = c.q_size(), kv = c.kv_size();
  LayerWeights l;
  l.attn_norm = t.take_f32(p + "input_layernorm.weight", {d});
  l.wq = take_linear(t, p + "self_attn.q_proj", q, d, quant);
  l.wk = take_linear(t, p + "self_attn.k_proj", kv, d, quant);
  l.wv = take_linear(t, p + "self_attn.v_proj", kv, d, quant);
  l.wo = take_linear(t, p + "self_attn.o_proj", d, q, quant);
  if (c.attention_bias) {
    l.bq = t.take_f32(p + "self_attn.q_proj.bias", {q});
    l.bk = t.take_f32(p + "self_attn.k_proj.bias", {kv});
    l.bv = t.take_f32(p + "self_attn.v_proj.bias", {kv});
  }
  if (c.qk_norm) {
    l.q_norm = t.take_f32(p + "self_attn.q_norm.weight", {c.head_dim});
    l.k_norm = t.take_f32(p + "self_attn.k_norm.weight", {c.head_dim});
  }
  t.discard(p + "self_attn.rotary_emb.inv_freq");  // old checkpoints store the RoPE table
  l.ffn_norm = t.take_f32(p + "post_attention_layernorm.weight", {d});
  if (c.is_moe()) {
    read_moe(t, p, c, quant, l);
  } else {
    l.ffn =
        read_ffn(t, p + "mlp.", "gate_proj", "up_proj", "down_proj", d, c.intermediate_size, quant);
  }
  return l;
}

Vocabulary placeholder_vocabulary(const ModelConfig& c) {
  constexpr int kMinSynthetic = 259;  // <unk>, <s>, </s> and the 256 byte tokens
  if (c.vocab_size < kMinSynthetic) return Vocabulary();
  Vocabulary v = synthetic_vocabulary(c.vocab_size);
  if (c.bos_token_id >= 0 && c.bos_token_id < c.vocab_size) v.bos_id = c.bos_token_id;
  if (c.eos_token_id >= 0 && c.eos_token_id < c.vocab_size) v.eos_id = c.eos_token_id;
  return v;
}

std::string directory_name(const fs::path& dir) {
  fs::path p = fs::absolute(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();  // "models/x/" names "x"
  return p.filename().string();
}

void check_directory(const fs::path& dir) {
  std::error_code ec;
  const fs::file_status s = fs::status(dir, ec);
  if (!fs::exists(s)) throw ModelLoadError(dir.string(), "no such file or directory");
  if (!fs::is_directory(s)) {
    throw ModelLoadError(dir.string(),
                         "not a directory (expected config.json and *.safetensors in it)");
  }
}

}  // namespace

ModelWeights read_safetensors(const std::string& dir_name) {
  const fs::path dir(dir_name);
  check_directory(dir);
  const std::string config_path = (dir / "config.json").string();
  ModelWeights w;
  const std::string config_text = read_text_file(config_path);
  w.config = parse_hf_config(config_text, config_path);
  const CheckpointQuantization quant = read_quantization(config_text, config_path);
  ModelConfig& c = w.config;
  if (c.name == ModelConfig().name) c.name = directory_name(dir);
  TensorTable t = read_tensor_table(dir);
  if (!quant.awq) check_no_awq_tensors(t, config_path);
  const int64_t d = c.hidden_size;
  w.embed = t.take("model.embed_tokens.weight", {c.vocab_size, d});
  for (int i = 0; i < c.num_layers; ++i) w.layers.push_back(read_layer(t, c, quant, i));
  w.final_norm = t.take_f32("model.norm.weight", {d});
  if (c.tie_word_embeddings) {
    t.discard("lm_head.weight");  // some tied checkpoints store the copy anyway
  } else {
    w.lm_head = take_linear(t, "lm_head", c.vocab_size, d, quant);
  }
  t.expect_all_taken();
  w.vocab = placeholder_vocabulary(c);
  return w;
}

}  // namespace infergate
