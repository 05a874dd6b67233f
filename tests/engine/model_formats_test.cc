// Round trips through GGUF and safetensors must not change a single logit, and the GGUF Q/K
// permutation must be llama.cpp's.
#include <catch2/catch.hpp>
#include <cstring>
#include <nlohmann/json.hpp>

#include "engine/forward/reference_forward.h"
#include "engine/model/gguf_file.h"
#include "engine/model/gguf_reader.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/mapped_file.h"
#include "engine/model/model_loader.h"
#include "engine/model/rotary_permute.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "engine/model/synthetic_model.h"
#include "model_formats_util.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

struct TensorRecord {
  std::string name;
  DType dtype;
  std::vector<int64_t> shape;
  std::vector<uint8_t> bytes;
  bool operator==(const TensorRecord&) const = default;
};

std::vector<TensorRecord> records(const ModelWeights& w) {
  std::vector<TensorRecord> out;
  w.for_each_tensor([&](const std::string& name, const Tensor& t) {
    const uint8_t* p = static_cast<const uint8_t*>(t.raw());
    out.push_back({name, t.dtype(), t.shape(), std::vector<uint8_t>(p, p + t.nbytes())});
  });
  return out;
}

void require_same_config(const ModelConfig& a, const ModelConfig& b) {
  CHECK(a.vocab_size == b.vocab_size);
  CHECK(a.hidden_size == b.hidden_size);
  CHECK(a.num_layers == b.num_layers);
  CHECK(a.num_heads == b.num_heads);
  CHECK(a.num_kv_heads == b.num_kv_heads);
  CHECK(a.head_dim == b.head_dim);
  CHECK(a.intermediate_size == b.intermediate_size);
  CHECK(a.rope_theta == b.rope_theta);
  CHECK(a.rms_norm_eps == b.rms_norm_eps);
  CHECK(a.max_position_embeddings == b.max_position_embeddings);
  CHECK(a.tie_word_embeddings == b.tie_word_embeddings);
  CHECK(a.attention_bias == b.attention_bias);
  CHECK(a.moe.num_experts == b.moe.num_experts);
  CHECK(a.moe.top_k == b.moe.top_k);
  CHECK(a.moe.expert_intermediate_size == b.moe.expert_intermediate_size);
  CHECK(a.moe.shared_expert_intermediate_size == b.moe.shared_expert_intermediate_size);
  CHECK(a.bos_token_id == b.bos_token_id);
  CHECK(a.eos_token_id == b.eos_token_id);
}

// Exports `w`, loads it back and requires identical tensors and bitwise identical logits.
ModelWeights require_round_trip(const ModelWeights& w, const std::string& format,
                                const std::string& path) {
  export_model(w, format, path);
  ModelSource source;
  source.kind = format;
  source.path = path;
  ModelWeights back = load_model(source);
  require_same_config(w.config, back.config);
  REQUIRE(reference_forward(back, kTokens) == reference_forward(w, kTokens));
  return back;
}

const ModelConfig& config_named(const std::string& name) {
  static const ModelConfig dense = dense_gqa_config(), bias = qwen2_bias_config(),
                           moe = moe_config();
  return name == "dense" ? dense : name == "bias" ? bias : moe;
}

}  // namespace

TEST_CASE("GGUF round trip keeps every tensor and logit bit for bit", "[model][gguf]") {
  const std::string which = GENERATE("dense", "bias", "moe");
  const std::string dtype = GENERATE("f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q4_k", "q5_0",
                                     "q5_1", "q2_k", "q3_k", "q5_k", "q6_k", "iq4_nl", "iq4_xs");
  CAPTURE(which, dtype);
  ModelWeights w = make_synthetic_model(config_named(which), 11);
  w.convert_matrices(parse_dtype(dtype));
  TempDir dir;
  const ModelWeights back = require_round_trip(w, "gguf", dir.file("model.gguf"));
  REQUIRE(records(back) == records(w));
  CHECK(back.config.name == w.config.name);
  CHECK(back.vocab.tokens == w.vocab.tokens);
  CHECK(back.vocab.scores == w.vocab.scores);
  CHECK(back.vocab.types == w.vocab.types);
  CHECK(back.vocab.bos_id == w.vocab.bos_id);
  CHECK(back.vocab.eos_id == w.vocab.eos_id);
  CHECK(back.vocab.unk_id == w.vocab.unk_id);
}

TEST_CASE("a w8a8 model exports as Q8_0 blocks and converts back to w8a8 bit for bit",
          "[model][gguf]") {
  // Per-channel int8 is Q8_0 with one scale repeated along each row: the file is plain Q8_0
  // (llama.cpp runs it), and weight_dtype w8a8 on it recovers the same bytes.
  ModelWeights w = make_synthetic_model(dense_gqa_config(), 15);
  w.convert_matrices(DType::kW8A8);
  TempDir dir;
  export_model(w, "gguf", dir.file("w8a8.gguf"));
  ModelWeights back = read_gguf(dir.file("w8a8.gguf"));
  CHECK(back.layers[0].wq.dtype() == DType::kQ8_0);
  back.convert_matrices(DType::kW8A8);
  REQUIRE(records(back) == records(w));
  REQUIRE(reference_forward(back, kTokens) == reference_forward(w, kTokens));
}

// With the GGUF round trip above, this is the issue's "the same weights as a safetensors
// directory give the same tokens as the GGUF": both reload to the logits of the same weights.
TEST_CASE("safetensors round trip keeps logits bit for bit", "[model][safetensors]") {
  const std::string which = GENERATE("dense", "bias", "moe");
  const std::string dtype = GENERATE("f32", "f16", "bf16", "q8_0", "q4_0", "q4_1", "q4_k", "q5_0",
                                     "q5_1", "q2_k", "q3_k", "q5_k", "q6_k", "iq4_nl", "iq4_xs");
  CAPTURE(which, dtype);
  ModelWeights w = make_synthetic_model(config_named(which), 12);
  w.convert_matrices(parse_dtype(dtype));
  TempDir dir;
  const ModelWeights back = require_round_trip(w, "safetensors", dir.file("model"));
  CHECK(back.config.architecture == w.config.architecture);
  CHECK(back.config.name == w.config.name);
  if (!is_block_quantized(parse_dtype(dtype))) {
    REQUIRE(records(back) == records(w));
  } else {  // no block formats in safetensors: dequantized, exactly, to f32
    CHECK(back.layers[0].wq.dtype() == DType::kF32);
  }
}

TEST_CASE("group-wise INT4 round trips through AWQ safetensors byte for byte",
          "[model][safetensors][awq]") {
  const std::string which = GENERATE("dense", "bias", "moe");
  CAPTURE(which);
  ModelWeights w = make_synthetic_model(config_named(which), 16);
  w.convert_matrices_int4(32);
  TempDir dir;
  write_safetensors(w, dir.file("awq"), 32);
  const std::string config = read_text_file(dir.file("awq/config.json"));
  CHECK(config.find("\"quant_method\": \"awq\"") != std::string::npos);
  CHECK(config.find("\"group_size\": 32") != std::string::npos);
  const ModelWeights back = read_safetensors(dir.file("awq"));
  CHECK(back.layers[0].wq.dtype() == DType::kQ4_1);
  REQUIRE(records(back) == records(w));
  REQUIRE(reference_forward(back, kTokens) == reference_forward(w, kTokens));
}

TEST_CASE("GGUF export, reload, safetensors export, reload keeps the logits",
          "[model][gguf][safetensors]") {
  const std::string which = GENERATE("dense", "bias", "moe");
  CAPTURE(which);
  ModelWeights w = make_synthetic_model(config_named(which), 13);
  w.convert_matrices(DType::kBF16);
  TempDir dir;
  export_model(w, "gguf", dir.file("a.gguf"));
  const ModelWeights from_gguf = read_gguf(dir.file("a.gguf"));
  export_model(from_gguf, "safetensors", dir.file("b"));
  const ModelWeights from_st = read_safetensors(dir.file("b"));
  REQUIRE(reference_forward(from_st, kTokens) == reference_forward(w, kTokens));
  // And back again: safetensors -> GGUF.
  export_model(from_st, "gguf", dir.file("c.gguf"));
  REQUIRE(reference_forward(read_gguf(dir.file("c.gguf")), kTokens) ==
          reference_forward(w, kTokens));
}

namespace {

// llama.cpp's LlamaModel.permute on row indices, spelled out as numpy would do it:
// reshape(n_head, 2, rows / n_head / 2).swapaxes(1, 2).reshape(rows). out[r] = source row.
std::vector<int64_t> llama_cpp_permuted_rows(int64_t rows, int64_t n_head) {
  const int64_t half = rows / n_head / 2;
  std::vector<int64_t> out;
  for (int64_t h = 0; h < n_head; ++h) {  // axis 0
    for (int64_t i = 0; i < half; ++i) {  // axis 1 after swapaxes (was axis 2)
      for (int64_t j = 0; j < 2; ++j) {   // axis 2 after swapaxes (was axis 1)
        out.push_back(h * 2 * half + j * half + i);
      }
    }
  }
  return out;
}

Tensor row_index_matrix(int64_t rows, int64_t cols) {
  Tensor t = Tensor::zeros(DType::kF32, {rows, cols});
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) t.mutable_data<float>()[r * cols + c] = float(r);
  }
  return t;
}

}  // namespace

TEST_CASE("Q/K rotary permutation is llama.cpp's, checked by hand", "[model][gguf]") {
  // Two heads of dim 4: HF pairs rows (0,2) and (1,3); llama.cpp wants pairs adjacent.
  const Tensor q = permute_rotary_rows(row_index_matrix(8, 3), 2);
  const std::vector<float> expected = {0, 2, 1, 3, 4, 6, 5, 7};
  for (int64_t r = 0; r < 8; ++r) {
    for (int64_t c = 0; c < 3; ++c) CHECK(q.data<float>()[r * 3 + c] == expected[size_t(r)]);
  }
  const Tensor back = unpermute_rotary_rows(q, 2);
  for (int64_t r = 0; r < 8; ++r) CHECK(back.data<float>()[r * 3] == float(r));

  // The generic formula agrees for a bigger head dim, and a 1-D bias permutes like a column.
  const std::vector<int64_t> rows = llama_cpp_permuted_rows(24, 2);
  const Tensor column = row_index_matrix(24, 1);
  const Tensor big = permute_rotary_rows(column, 2);
  const Tensor bias =
      permute_rotary_rows(Tensor::borrow(DType::kF32, {24}, column.raw(), nullptr), 2);
  for (int64_t r = 0; r < 24; ++r) CHECK(big.data<float>()[r] == float(rows[size_t(r)]));
  for (int64_t r = 0; r < 24; ++r) CHECK(bias.data<float>()[r] == float(rows[size_t(r)]));
}

TEST_CASE("GGUF file stores Q and K in llama.cpp's order with reversed dims", "[model][gguf]") {
  const ModelWeights w = make_synthetic_model(dense_gqa_config(), 14);
  TempDir dir;
  write_gguf(w, dir.file("m.gguf"));
  const GgufFile g = GgufFile::parse(MappedFile::open(dir.file("m.gguf")));
  const ModelConfig& c = w.config;
  for (const GgufTensorInfo& info : g.tensors()) {
    const bool is_q = info.name == "blk.1.attn_q.weight", is_k = info.name == "blk.1.attn_k.weight";
    if (!is_q && !is_k) continue;
    const Tensor& hf = is_q ? w.layers[1].wq : w.layers[1].wk;
    const int64_t rows = hf.dim(0), cols = hf.dim(1);
    REQUIRE(info.ne == std::vector<int64_t>{cols, rows});  // ne[0] is the row length
    const Tensor stored = g.tensor(info);
    const std::vector<int64_t> src =
        llama_cpp_permuted_rows(rows, is_q ? c.num_heads : c.num_kv_heads);
    for (int64_t r = 0; r < rows; ++r) {
      REQUIRE(std::memcmp(stored.data<float>() + r * cols, hf.data<float>() + src[size_t(r)] * cols,
                          size_t(cols) * 4) == 0);
    }
  }
  CHECK(g.get_string("general.architecture") == "llama");
  CHECK(g.get_int("llama.attention.head_count_kv") == c.num_kv_heads);
  CHECK(g.get_int("llama.rope.dimension_count") == c.head_dim);
  CHECK(g.get_int("llama.vocab_size") == c.vocab_size);
  CHECK(g.get_string("tokenizer.ggml.model") == "llama");
}

TEST_CASE("GGUF reader honours general.alignment", "[model][gguf]") {
  const ModelWeights w = make_synthetic_model(micro_config(), 15);
  TempDir dir;
  GgufWriteOptions options;
  options.alignment = 256;
  write_gguf(w, dir.file("m.gguf"), options);
  const GgufFile g = GgufFile::parse(MappedFile::open(dir.file("m.gguf")));
  REQUIRE(g.alignment() == 256);
  CHECK(g.data_offset() % 256 == 0);
  for (const GgufTensorInfo& t : g.tensors()) CHECK(t.offset % 256 == 0);
  REQUIRE(reference_forward(read_gguf(dir.file("m.gguf")), kMicroTokens) ==
          reference_forward(w, kMicroTokens));
  CHECK_THROWS_AS(write_gguf(w, dir.file("x.gguf"), GgufWriteOptions{12}), std::invalid_argument);
}

namespace {

// Writes `names` of `w` as one safetensors shard, independently of safetensors_writer.
void write_shard(const ModelWeights& w, const std::vector<std::string>& names,
                 const std::string& path) {
  nlohmann::json header = nlohmann::json::object();
  std::string data;
  w.for_each_tensor([&](const std::string& name, const Tensor& t) {
    if (std::find(names.begin(), names.end(), name) == names.end()) return;
    header[name] = {{"dtype", "F32"},
                    {"shape", t.shape()},
                    {"data_offsets", {data.size(), data.size() + t.nbytes()}}};
    data.append(static_cast<const char*>(t.raw()), t.nbytes());
  });
  const std::string text = header.dump();
  std::vector<uint8_t> bytes(8);
  const uint64_t n = text.size();
  std::memcpy(bytes.data(), &n, 8);
  bytes.insert(bytes.end(), text.begin(), text.end());
  bytes.insert(bytes.end(), data.begin(), data.end());
  write_bytes(path, bytes);
}

}  // namespace

TEST_CASE("safetensors reader follows model.safetensors.index.json shards",
          "[model][safetensors]") {
  const ModelWeights w = make_synthetic_model(micro_config(), 16);
  TempDir dir;
  export_model(w, "safetensors", dir.file("m"));  // for config.json
  std::filesystem::remove(dir.file("m/model.safetensors"));
  std::vector<std::string> first, second;
  nlohmann::json map = nlohmann::json::object();
  w.for_each_tensor([&](const std::string& name, const Tensor&) {
    const bool early = name.find("layers.0.mlp") == std::string::npos;
    (early ? first : second).push_back(name);
    map[name] = early ? "model-00001-of-00002.safetensors" : "model-00002-of-00002.safetensors";
  });
  write_shard(w, first, dir.file("m/model-00001-of-00002.safetensors"));
  write_shard(w, second, dir.file("m/model-00002-of-00002.safetensors"));
  write_text(dir.file("m/model.safetensors.index.json"),
             nlohmann::json{{"metadata", {{"total_size", 0}}}, {"weight_map", map}}.dump());
  REQUIRE(reference_forward(read_safetensors(dir.file("m")), kMicroTokens) ==
          reference_forward(w, kMicroTokens));
}

TEST_CASE("HF config.json fields map to ModelConfig with transformers' defaults",
          "[model][safetensors]") {
  const ModelWeights w = make_synthetic_model(micro_config(), 17);
  TempDir dir;
  export_model(w, "safetensors", dir.file("m"));
  // A Llama-3-style config: eos as a list, no head_dim, rope_theta or attention_bias.
  nlohmann::json cfg = nlohmann::json::parse(read_text_file(dir.file("m/config.json")));
  cfg.erase("head_dim");
  cfg.erase("rope_theta");
  cfg.erase("attention_bias");
  cfg["eos_token_id"] = {2, 5};
  cfg["rms_norm_eps"] = 1e-5;
  write_text(dir.file("m/config.json"), cfg.dump());
  const ModelWeights back = read_safetensors(dir.file("m"));
  CHECK(back.config.head_dim == 16);
  CHECK(back.config.rope_theta == 10000.0f);
  CHECK(back.config.eos_token_id == 2);
  CHECK(back.config.name == "micro");
  CHECK(back.vocab.size() == 300);
  REQUIRE(reference_forward(back, kMicroTokens) == reference_forward(w, kMicroTokens));
}

TEST_CASE("load_model builds synthetic models and dispatches on kind", "[model]") {
  ModelSource s;
  s.preset = "tiny";
  s.seed = 3;
  const ModelWeights w = load_model(s);
  CHECK(w.config.name == "tiny");
  CHECK(records(w) == records(make_synthetic_model(preset_config("tiny"), 3)));
  s.preset = "huge";
  CHECK_THROWS_WITH(load_model(s), Catch::Contains("huge") && Catch::Contains("tiny"));
  s.kind = "onnx";
  CHECK_THROWS_AS(load_model(s), ModelLoadError);
  CHECK_THROWS_AS(export_model(w, "onnx", "/tmp/x"), std::invalid_argument);
}
