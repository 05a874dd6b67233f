#include "engine/model/safetensors_reader.h"

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>

#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"
#include "engine/model/hf_config.h"
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

FfnWeights read_ffn(TensorTable& t, const std::string& p, const char* gate, const char* up,
                    const char* down, int64_t d, int64_t ff) {
  FfnWeights f;
  f.gate = t.take(p + gate + ".weight", {ff, d});
  f.up = t.take(p + up + ".weight", {ff, d});
  f.down = t.take(p + down + ".weight", {d, ff});
  return f;
}

void read_moe(TensorTable& t, const std::string& p, const ModelConfig& c, LayerWeights& l) {
  const int64_t d = c.hidden_size, e = c.moe.num_experts;
  const std::string moe = p + "block_sparse_moe.";
  l.router = t.take_f32(moe + "gate.weight", {e, d});
  for (int64_t i = 0; i < e; ++i) {
    const std::string ep = moe + "experts." + std::to_string(i) + ".";
    l.experts.push_back(read_ffn(t, ep, "w1", "w3", "w2", d, c.moe.expert_intermediate_size));
  }
  if (c.moe.shared_expert_intermediate_size > 0) {
    l.shared_expert = read_ffn(t, moe + "shared_expert.", "gate_proj", "up_proj", "down_proj", d,
                               c.moe.shared_expert_intermediate_size);
  }
}

LayerWeights read_layer(TensorTable& t, const ModelConfig& c, int i) {
  const std::string p = hf_layer_prefix(i);
  const int64_t d = c.hidden_size, q = c.q_size(), kv = c.kv_size();
  LayerWeights l;
  l.attn_norm = t.take_f32(p + "input_layernorm.weight", {d});
  l.wq = t.take(p + "self_attn.q_proj.weight", {q, d});
  l.wk = t.take(p + "self_attn.k_proj.weight", {kv, d});
  l.wv = t.take(p + "self_attn.v_proj.weight", {kv, d});
  l.wo = t.take(p + "self_attn.o_proj.weight", {d, q});
  if (c.attention_bias) {
    l.bq = t.take_f32(p + "self_attn.q_proj.bias", {q});
    l.bk = t.take_f32(p + "self_attn.k_proj.bias", {kv});
    l.bv = t.take_f32(p + "self_attn.v_proj.bias", {kv});
  }
  t.discard(p + "self_attn.rotary_emb.inv_freq");  // old checkpoints store the RoPE table
  l.ffn_norm = t.take_f32(p + "post_attention_layernorm.weight", {d});
  if (c.is_moe()) {
    read_moe(t, p, c, l);
  } else {
    l.ffn = read_ffn(t, p + "mlp.", "gate_proj", "up_proj", "down_proj", d, c.intermediate_size);
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
  w.config = parse_hf_config(read_text_file(config_path), config_path);
  ModelConfig& c = w.config;
  if (c.name == ModelConfig().name) c.name = directory_name(dir);
  TensorTable t = read_tensor_table(dir);
  const int64_t d = c.hidden_size;
  w.embed = t.take("model.embed_tokens.weight", {c.vocab_size, d});
  for (int i = 0; i < c.num_layers; ++i) w.layers.push_back(read_layer(t, c, i));
  w.final_norm = t.take_f32("model.norm.weight", {d});
  if (c.tie_word_embeddings) {
    t.discard("lm_head.weight");  // some tied checkpoints store the copy anyway
  } else {
    w.lm_head = t.take("lm_head.weight", {c.vocab_size, d});
  }
  t.expect_all_taken();
  w.vocab = placeholder_vocabulary(c);
  return w;
}

}  // namespace infergate
