// Truncated, corrupt and unsupported model files must fail with a ModelLoadError that names the
// file and the problem; never with a crash or an out-of-bounds read.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "engine/model/gguf_file.h"
#include "engine/model/gguf_writer.h"
#include "engine/model/model_loader.h"
#include "engine/model/synthetic_model.h"
#include "model_formats_util.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

ModelWeights load(const std::string& kind, const std::string& path) {
  ModelSource s;
  s.kind = kind;
  s.path = path;
  return load_model(s);
}

// Requires load() to throw a ModelLoadError whose message has `file` and `problem` in it.
void require_load_error(const std::string& kind, const std::string& path, const std::string& file,
                        const std::string& problem) {
  try {
    load(kind, path);
    FAIL("loaded " << path << " without error; expected: " << problem);
  } catch (const ModelLoadError& e) {
    INFO(e.what());
    CHECK(std::string(e.what()).find(file) != std::string::npos);
    CHECK(std::string(e.what()).find(problem) != std::string::npos);
  }
}

std::vector<uint8_t> micro_gguf(const TempDir& dir) {
  write_gguf(make_synthetic_model(micro_config(), 5), dir.file("good.gguf"));
  return read_bytes(dir.file("good.gguf"));
}

// Byte offset of the ggml type field of tensor `name` in a GGUF file's tensor infos.
size_t tensor_type_offset(const std::vector<uint8_t>& bytes, const std::string& name) {
  const size_t at = find_bytes(bytes, name);
  REQUIRE(at != std::string::npos);
  uint32_t n_dims = 0;
  std::memcpy(&n_dims, &bytes[at + name.size()], 4);
  return at + name.size() + 4 + 8 * n_dims;
}

template <typename T>
void poke(std::vector<uint8_t>& bytes, size_t offset, T value) {
  std::memcpy(&bytes[offset], &value, sizeof(T));
}

}  // namespace

TEST_CASE("truncated GGUF files are reported as truncated wherever they end",
          "[model][gguf][errors]") {
  TempDir dir;
  const std::vector<uint8_t> good = micro_gguf(dir);
  const GgufFile g = GgufFile::parse(MappedFile::open(dir.file("good.gguf")));
  const size_t data = size_t(g.data_offset());
  for (size_t cut : {size_t(0), size_t(3), size_t(8), size_t(20), size_t(100), size_t(2000),
                     data - 40, data, data + 1000, good.size() - 1}) {
    CAPTURE(cut);
    write_bytes(dir.file("cut.gguf"), std::vector<uint8_t>(good.begin(), good.begin() + long(cut)));
    require_load_error("gguf", dir.file("cut.gguf"), "cut.gguf", "truncated");
  }
}

TEST_CASE("GGUF with a bad magic, version or tensor type is rejected by name",
          "[model][gguf][errors]") {
  TempDir dir;
  const std::vector<uint8_t> good = micro_gguf(dir);
  std::vector<uint8_t> bad = good;
  std::memcpy(bad.data(), "GGML", 4);
  write_bytes(dir.file("magic.gguf"), bad);
  require_load_error("gguf", dir.file("magic.gguf"), "magic.gguf", "bad magic");

  for (uint32_t version : {1u, 4u, 99u}) {
    bad = good;
    poke<uint32_t>(bad, 4, version);
    write_bytes(dir.file("version.gguf"), bad);
    require_load_error("gguf", dir.file("version.gguf"), "version.gguf",
                       "unsupported GGUF version " + std::to_string(version));
  }

  bad = good;
  poke<uint32_t>(bad, tensor_type_offset(bad, "blk.0.attn_q.weight"), 16);
  write_bytes(dir.file("iq2xxs.gguf"), bad);
  require_load_error("gguf", dir.file("iq2xxs.gguf"), "iq2xxs.gguf",
                     "unsupported tensor type 16 (IQ2_XXS) for 'blk.0.attn_q.weight' "
                     "(supported: F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, Q5_1, Q2_K, Q3_K, Q4_K, "
                     "Q5_K, Q6_K, IQ4_NL, IQ4_XS)");

  // A Q4_0 tensor whose rows (ne[0] = 40) are not whole 32-element blocks.
  bad = good;
  const size_t type_at = tensor_type_offset(bad, "blk.0.attn_q.weight");
  poke<uint32_t>(bad, type_at, 2);
  poke<uint64_t>(bad, type_at - 16, 40);  // ne[0] of the two dimensions
  write_bytes(dir.file("q4rows.gguf"), bad);
  require_load_error("gguf", dir.file("q4rows.gguf"), "q4rows.gguf",
                     "tensor 'blk.0.attn_q.weight' is Q4_0 but its row length 40 is not a "
                     "multiple of 32");

  // K-quant tensors whose rows (ne[0] = 288) are whole 32-blocks but not 256-value
  // super-blocks, and a Q5_0 one with rows of 40.
  for (const auto& [type, name, length, block] :
       std::vector<std::tuple<uint32_t, std::string, int, int>>{{12, "Q4_K", 288, 256},
                                                                {14, "Q6_K", 288, 256},
                                                                {10, "Q2_K", 288, 256},
                                                                {23, "IQ4_XS", 288, 256},
                                                                {6, "Q5_0", 40, 32}}) {
    bad = good;
    poke<uint32_t>(bad, type_at, type);
    poke<uint64_t>(bad, type_at - 16, uint64_t(length));
    write_bytes(dir.file("rows.gguf"), bad);
    require_load_error("gguf", dir.file("rows.gguf"), "rows.gguf",
                       "tensor 'blk.0.attn_q.weight' is " + name + " but its row length " +
                           std::to_string(length) + " is not a multiple of " +
                           std::to_string(block));
  }
}

TEST_CASE("GGUF with a missing, misshapen or unknown tensor is rejected by name",
          "[model][gguf][errors]") {
  TempDir dir;
  const std::vector<uint8_t> good = micro_gguf(dir);
  std::vector<uint8_t> bad = good;
  const size_t at = find_bytes(bad, "blk.0.ffn_up.weight");
  bad[at + 6] = 'x';  // "blk.0.fxn_up.weight": ffn_up is gone, an unknown tensor appears
  write_bytes(dir.file("renamed.gguf"), bad);
  require_load_error("gguf", dir.file("renamed.gguf"), "renamed.gguf",
                     "missing tensor 'blk.0.ffn_up.weight'");

  bad = good;
  const size_t dims = find_bytes(bad, "blk.0.ffn_norm.weight") + 21 + 4;
  poke<uint64_t>(bad, dims, 32);  // 64 -> 32 elements
  write_bytes(dir.file("shape.gguf"), bad);
  require_load_error("gguf", dir.file("shape.gguf"), "shape.gguf",
                     "shape mismatch: tensor 'blk.0.ffn_norm.weight' is [32], expected [64]");

  ModelWeights w = make_synthetic_model(micro_config(), 5);
  w.config.architecture = "llama";
  write_gguf(w, dir.file("arch.gguf"));
  bad = read_bytes(dir.file("arch.gguf"));
  const size_t arch = find_bytes(bad, "general.architecture") + 20 + 4 + 8;
  std::memcpy(&bad[arch], "gemma", 5);
  write_bytes(dir.file("arch.gguf"), bad);
  require_load_error("gguf", dir.file("arch.gguf"), "arch.gguf", "unsupported architecture");
}

TEST_CASE("GGUF RoPE scaling of an unknown type or a misshapen rope_freqs is rejected by name",
          "[model][gguf][errors]") {
  TempDir dir;
  ModelConfig c = micro_config();
  c.rope_scaling.type = "yarn";
  c.rope_scaling.factor = 4;
  write_gguf(make_synthetic_model(c, 5), dir.file("yarn.gguf"));
  std::vector<uint8_t> bad = read_bytes(dir.file("yarn.gguf"));
  const std::string key = "llama.rope.scaling.type";
  const size_t value = find_bytes(bad, key) + key.size() + 4 + 8;  // after type and length
  std::memcpy(&bad[value], "ntk_", 4);
  write_bytes(dir.file("type.gguf"), bad);
  require_load_error("gguf", dir.file("type.gguf"), "type.gguf",
                     "unsupported RoPE scaling 'ntk_' in 'llama.rope.scaling.type' (supported: "
                     "none, linear, yarn)");

  c.rope_scaling = RopeScaling();
  c.rope_scaling.type = "llama3";
  c.rope_scaling.factor = 8;
  c.rope_scaling.original_max_position_embeddings = 64;
  write_gguf(make_synthetic_model(c, 5), dir.file("llama3.gguf"));
  bad = read_bytes(dir.file("llama3.gguf"));
  const size_t dims = find_bytes(bad, "rope_freqs.weight") + 17 + 4;
  poke<uint64_t>(bad, dims, 4);  // head_dim / 2 = 8 factors -> 4
  write_bytes(dir.file("freqs.gguf"), bad);
  require_load_error("gguf", dir.file("freqs.gguf"), "freqs.gguf",
                     "shape mismatch: tensor 'rope_freqs.weight' is [4], expected [8]");
}

TEST_CASE("corrupted GGUF headers never crash the reader", "[model][gguf][errors]") {
  TempDir dir;
  const std::vector<uint8_t> good = micro_gguf(dir);
  const size_t header =
      size_t(GgufFile::parse(MappedFile::open(dir.file("good.gguf"))).data_offset());
  uint64_t state = 42;
  auto next = [&] {
    return (state = state * 6364136223846793005ULL + 1442695040888963407ULL) >> 33;
  };
  int failures = 0;
  for (int i = 0; i < 300; ++i) {
    std::vector<uint8_t> bad = good;
    for (int flips = 0; flips < 1 + i % 4; ++flips) {
      bad[next() % header] = uint8_t(next());
    }
    write_bytes(dir.file("fuzz.gguf"), bad);
    try {
      load("gguf", dir.file("fuzz.gguf"));
    } catch (const ModelLoadError& e) {
      ++failures;
      REQUIRE(std::string(e.what()).find("fuzz.gguf") != std::string::npos);
    }
  }
  CHECK(failures > 100);  // most corruptions are detected, none crash or escape as another type
}

namespace {

// A one-tensor safetensors file with the given header text and `data_bytes` zero bytes.
void write_safetensors_file(const std::string& path, const std::string& header, size_t data_bytes,
                            uint64_t declared_length = 0) {
  std::vector<uint8_t> bytes(8);
  const uint64_t n = declared_length ? declared_length : header.size();
  std::memcpy(bytes.data(), &n, 8);
  bytes.insert(bytes.end(), header.begin(), header.end());
  bytes.resize(bytes.size() + data_bytes);
  write_bytes(path, bytes);
}

// A valid checkpoint directory of the micro model, to corrupt one file of.
std::string micro_checkpoint(const TempDir& dir) {
  export_model(make_synthetic_model(micro_config(), 6), "safetensors", dir.file("ckpt"));
  return dir.file("ckpt");
}

}  // namespace

TEST_CASE("corrupt safetensors headers are rejected by name", "[model][safetensors][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  const std::string file = ckpt + "/model.safetensors";
  const std::string entry =
      R"({"model.norm.weight": {"dtype": "F32", "shape": [64], "data_offsets": [0, 256]}})";

  write_safetensors_file(file, "{\"model.norm.weight\": {\"dtype\": ", 256);
  require_load_error("safetensors", ckpt, "model.safetensors", "bad header JSON");

  write_safetensors_file(file, entry, 100);
  require_load_error("safetensors", ckpt, "model.safetensors", "run past the 100 data bytes");

  write_safetensors_file(file, entry, 256, uint64_t(1) << 40);
  require_load_error("safetensors", ckpt, "model.safetensors", "header length 1099511627776");

  write_safetensors_file(file, entry, 256, 4096);
  require_load_error("safetensors", ckpt, "model.safetensors", "truncated");

  write_bytes(file, {1, 2, 3});
  require_load_error("safetensors", ckpt, "model.safetensors", "truncated");

  write_safetensors_file(
      file, R"({"model.norm.weight": {"dtype": "I64", "shape": [64], "data_offsets": [0, 512]}})",
      512);
  require_load_error("safetensors", ckpt, "model.safetensors", "unsupported dtype 'I64'");

  write_safetensors_file(
      file, R"({"model.norm.weight": {"dtype": "F32", "shape": [60], "data_offsets": [0, 256]}})",
      256);
  require_load_error("safetensors", ckpt, "model.safetensors", "shape mismatch");

  // A key given twice is refused rather than the last one silently winning.
  write_safetensors_file(
      file,
      R"({"model.norm.weight": {"dtype": "F32", "shape": [64], "data_offsets": [0, 256]},
          "model.norm.weight": {"dtype": "F32", "shape": [32], "data_offsets": [0, 128]}})",
      256);
  require_load_error("safetensors", ckpt, "model.safetensors", "duplicate key 'model.norm.weight'");
  write_safetensors_file(file,
                         R"({"model.norm.weight": {"dtype": "F32", "dtype": "F16", "shape": [64],
          "data_offsets": [0, 256]}})",
                         256);
  require_load_error("safetensors", ckpt, "model.safetensors", "duplicate key 'dtype'");

  write_safetensors_file(file, entry, 256);  // valid, but the model needs more tensors
  require_load_error("safetensors", ckpt, "ckpt", "missing tensor 'model.embed_tokens.weight'");
}

TEST_CASE("bad config.json files are rejected by field", "[model][safetensors][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  const std::string config_path = ckpt + "/config.json";
  const nlohmann::json good = nlohmann::json::parse(read_bytes(config_path));

  nlohmann::json cfg = good;
  cfg.erase("hidden_size");
  write_text(config_path, cfg.dump());
  require_load_error("safetensors", ckpt, "config.json", "missing field 'hidden_size'");

  cfg = good;
  cfg["architectures"] = {"GPT2LMHeadModel"};
  write_text(config_path, cfg.dump());
  require_load_error("safetensors", ckpt, "config.json",
                     "unsupported architecture 'GPT2LMHeadModel'");

  cfg = good;
  cfg["num_attention_heads"] = "four";
  write_text(config_path, cfg.dump());
  require_load_error("safetensors", ckpt, "config.json", "field 'num_attention_heads'");

  cfg = good;
  cfg["eos_token_id"] = {int64_t(1) << 40, 2};  // the first of a list is used: bounded too
  write_text(config_path, cfg.dump());
  require_load_error("safetensors", ckpt, "config.json",
                     "field 'eos_token_id' must be a non-negative integer, got 1099511627776");

  // rope_scaling: a missing key, a key the type does not read, an unknown type, a bad value.
  const std::vector<std::pair<nlohmann::json, std::string>> bad_scaling = {
      {{{"rope_type", "llama3"}, {"factor", 8.0}},
       "rope_scaling.low_freq_factor is missing (rope_type llama3 needs: factor, "
       "low_freq_factor, high_freq_factor, original_max_position_embeddings)"},
      {{{"type", "yarn"}, {"factor", 4.0}, {"mscale", 0.7}},
       "unsupported key 'rope_scaling.mscale' for rope_type yarn (it reads: factor; optionally "
       "original_max_position_embeddings, attention_factor, beta_fast, beta_slow, truncate)"},
      {{{"rope_type", "longrope"}, {"factor", 4.0}},
       "unsupported rope_scaling.rope_type 'longrope' (supported: default, linear, dynamic, "
       "llama3, yarn)"},
      {{{"rope_type", "linear"}, {"factor", -2}},
       "rope_scaling.factor must be a finite number > 0, got -2"},
      {{{"rope_type", "linear"}, {"factor", 0.5}},
       "rope_scaling.factor must be a finite number >= 1, got 0.5"},
      {{{"factor", 2.0}}, "rope_scaling has no 'rope_type' (or 'type')"},
      {"linear", "rope_scaling must be an object, got \"linear\""},
      {{{"rope_type", "yarn"}, {"factor", 4.0}, {"beta_fast", 1.0}, {"beta_slow", 32.0}},
       "rope_scaling needs 0 < beta_slow < beta_fast, got 32 and 1"},
  };
  for (const auto& [scaling, message] : bad_scaling) {
    CAPTURE(scaling.dump());
    cfg = good;
    cfg["rope_scaling"] = scaling;
    write_text(config_path, cfg.dump());
    require_load_error("safetensors", ckpt, "config.json", message);
  }

  cfg = good;
  cfg["hidden_size"] = 32;  // the tensors say 64
  write_text(config_path, cfg.dump());
  require_load_error("safetensors", ckpt, "model.safetensors", "shape mismatch");

  write_text(config_path, "{ not json");
  require_load_error("safetensors", ckpt, "config.json", "not JSON at line 1, column 4");

  std::filesystem::remove(config_path);
  require_load_error("safetensors", ckpt, "config.json", "no such file");
}

TEST_CASE("nonexistent paths are reported as such", "[model][errors]") {
  require_load_error("gguf", "/nonexistent/model.gguf", "/nonexistent/model.gguf", "no such file");
  require_load_error("safetensors", "/nonexistent/ckpt", "/nonexistent/ckpt", "no such file");
  TempDir dir;
  write_bytes(dir.file("empty.gguf"), {});
  require_load_error("gguf", dir.file("empty.gguf"), "empty.gguf", "truncated");
  require_load_error("gguf", dir.file(""), "infergate-test", "is a directory");
  std::filesystem::create_directories(dir.file("noweights"));
  write_text(dir.file("noweights/config.json"),
             R"({"architectures": ["LlamaForCausalLM"], "vocab_size": 300, "hidden_size": 64,
                 "num_hidden_layers": 1, "num_attention_heads": 4, "intermediate_size": 128})");
  require_load_error("safetensors", dir.file("noweights"), "noweights", "no *.safetensors files");
}

TEST_CASE("a failed export leaves no file behind", "[model][errors]") {
  TempDir dir;
  ModelWeights w = make_synthetic_model(micro_config(), 7);
  w.vocab.tokens.pop_back();  // vocabulary and vocab_size disagree: the writer refuses
  CHECK_THROWS_AS(export_model(w, "gguf", dir.file("m.gguf")), std::invalid_argument);
  CHECK_THROWS_WITH(
      export_model(make_synthetic_model(micro_config(), 7), "gguf", dir.file("missing-dir/m.gguf")),
      Catch::Contains("missing-dir/m.gguf"));
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir.file(""))) {
    left.push_back(e.path().filename().string());
  }
  CHECK(left.empty());
}

namespace {

// `depth` nested arrays around 0: "[[[...0...]]]".
std::string nested_arrays(int depth) {
  return std::string(size_t(depth), '[') + "0" + std::string(size_t(depth), ']');
}

// Requires a load error that names `file`, says `problem`, and fits on one short line.
void require_one_line_error(const std::string& kind, const std::string& path,
                            const std::string& file, const std::string& problem) {
  try {
    load(kind, path);
    FAIL("loaded " << path << " without error; expected: " << problem);
  } catch (const ModelLoadError& e) {
    const std::string what = e.what();
    INFO(what.substr(0, 400));
    CHECK(what.find(file) != std::string::npos);
    CHECK(what.find(problem) != std::string::npos);
    CHECK(what.find('\n') == std::string::npos);
    CHECK(what.size() < 400);
  }
}

}  // namespace

TEST_CASE("deeply nested safetensors headers and config.json give a one-line error",
          "[model][safetensors][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  const std::string good_config =
      std::string(reinterpret_cast<const char*>(read_bytes(ckpt + "/config.json").data()),
                  read_bytes(ckpt + "/config.json").size());
  const std::string deep = nested_arrays(100000);

  write_safetensors_file(ckpt + "/model.safetensors", R"({"model.norm.weight": )" + deep + "}", 0);
  require_one_line_error("safetensors", ckpt, "model.safetensors",
                         "nests deeper than the limit of 128 levels");

  write_text(ckpt + "/config.json",
             R"({"architectures": ["LlamaForCausalLM"], "vocab_size": )" + deep + "}");
  require_one_line_error("safetensors", ckpt, "config.json",
                         "at line 1, column 182 (byte offset 181): nests deeper than the limit");

  write_text(ckpt + "/config.json", deep);
  require_one_line_error("safetensors", ckpt, "config.json", "nests deeper than the limit");

  // Shallow enough to parse: the error shows an excerpt of the value, never all of it.
  nlohmann::json cfg = nlohmann::json::parse(good_config);
  cfg["vocab_size"] = nlohmann::json::parse(nested_arrays(100));
  write_text(ckpt + "/config.json", cfg.dump());
  require_one_line_error("safetensors", ckpt, "config.json",
                         "field 'vocab_size' must be a non-negative integer, got [[[[");

  write_text(ckpt + "/config.json", good_config);
  write_text(ckpt + "/model.safetensors.index.json", R"({"weight_map": )" + deep + "}");
  require_one_line_error("safetensors", ckpt, "model.safetensors.index.json",
                         "nests deeper than the limit");
}

TEST_CASE("safetensors entries with a nested value show an excerpt of it",
          "[model][safetensors][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  const std::string file = ckpt + "/model.safetensors";
  write_safetensors_file(file,
                         R"({"model.norm.weight": {"dtype": "F32", "shape": )" +
                             nested_arrays(120) + R"(, "data_offsets": [0, 256]}})",
                         256);
  require_one_line_error("safetensors", ckpt, "model.safetensors",
                         "bad header: 'model.norm.weight' has shape [[[[");
  write_safetensors_file(file, R"({"model.norm.weight": )" + nested_arrays(120) + "}", 0);
  require_one_line_error("safetensors", ckpt, "model.safetensors",
                         "bad header entry for 'model.norm.weight': [[[[");
}

TEST_CASE("invalid config.json is reported with its line and column",
          "[model][safetensors][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  write_text(ckpt + "/config.json", "{\n  \"vocab_size\": 300,\n  \"hidden_size\": 64,,\n}");
  require_one_line_error("safetensors", ckpt, "config.json",
                         "config.json: not JSON at line 3, column 21 (byte offset 43)");
  write_text(ckpt + "/config.json", "[1, 2]");
  require_one_line_error("safetensors", ckpt, "config.json", "not a JSON object");
  export_model(make_synthetic_model(micro_config(), 6), "safetensors", ckpt);
  write_safetensors_file(ckpt + "/model.safetensors", "{\"a\": tru}", 0);
  require_one_line_error("safetensors", ckpt, "model.safetensors",
                         "bad header JSON at line 1, column 10");
}

TEST_CASE("non-finite or non-positive float hyper-parameters are rejected by key",
          "[model][gguf][safetensors][errors]") {
  TempDir dir;
  const std::string eps_key = "metadata 'llama.attention.layer_norm_rms_epsilon' = ";
  const std::string rope_key = "metadata 'llama.rope.freq_base' = ";
  const struct {
    float rms_norm_eps, rope_theta;
    std::string problem;
  } gguf_cases[] = {
      {std::nanf(""), 10000.0f, eps_key + "nan must be a finite number > 0"},
      {0.0f, 10000.0f, eps_key + "0 must be a finite number > 0"},
      {-1e-5f, 10000.0f, eps_key + "-1e-05 must be a finite number > 0"},
      {1e-5f, INFINITY, rope_key + "inf must be a finite number > 0"},
      {1e-5f, std::nanf(""), rope_key + "nan must be a finite number > 0"},
      {1e-5f, -10000.0f, rope_key + "-10000 must be a finite number > 0"},
  };
  for (const auto& c : gguf_cases) {
    ModelWeights w = make_synthetic_model(micro_config(), 5);
    w.config.rms_norm_eps = c.rms_norm_eps;
    w.config.rope_theta = c.rope_theta;
    write_gguf(w, dir.file("hparam.gguf"));
    require_one_line_error("gguf", dir.file("hparam.gguf"), "hparam.gguf", c.problem);
  }

  const std::string ckpt = micro_checkpoint(dir);
  const std::string config_path = ckpt + "/config.json";
  const nlohmann::json good = nlohmann::json::parse(read_bytes(config_path));
  const struct {
    const char* key;
    std::string value;  // JSON text
    std::string problem;
  } config_cases[] = {
      {"rms_norm_eps", "0", "field 'rms_norm_eps' must be a finite number > 0, got 0"},
      {"rms_norm_eps", "-1e-06", "field 'rms_norm_eps' must be a finite number > 0, got -1e-06"},
      {"rms_norm_eps", "\"1e-6\"",
       "field 'rms_norm_eps' must be a finite number > 0, got \"1e-6\""},
      {"rope_theta", "1e39", "field 'rope_theta' must be a finite number > 0, got 1e+39"},
      {"rope_theta", "1e400", "not JSON with number overflow parsing '1e400'"},
      {"rope_theta", "-1", "field 'rope_theta' must be a finite number > 0, got -1"},
  };
  for (const auto& c : config_cases) {
    nlohmann::json cfg = good;
    cfg[c.key] = "PLACEHOLDER";
    std::string text = cfg.dump();
    text.replace(text.find("\"PLACEHOLDER\""), 13, c.value);
    write_text(config_path, text);
    require_one_line_error("safetensors", ckpt, "config.json", c.problem);
  }
}

TEST_CASE("a FIFO, a device or a directory given as a model file is named as such",
          "[model][errors]") {
  TempDir dir;
  REQUIRE(::mkfifo(dir.file("pipe.gguf").c_str(), 0600) == 0);
  // O_NONBLOCK open: refused at once, although no writer will ever open the FIFO.
  require_one_line_error("gguf", dir.file("pipe.gguf"), "pipe.gguf",
                         "is a named pipe (FIFO), expected a regular file");
  require_one_line_error("gguf", "/dev/zero", "/dev/zero",
                         "is a character device, expected a regular file");
  require_one_line_error("gguf", dir.file(""), "infergate-test",
                         "is a directory, expected a regular file");

  const std::string ckpt = micro_checkpoint(dir);
  std::filesystem::remove(ckpt + "/config.json");
  REQUIRE(::mkfifo((ckpt + "/config.json").c_str(), 0600) == 0);
  require_one_line_error("safetensors", ckpt, "config.json", "is a named pipe (FIFO)");
  std::filesystem::remove(ckpt + "/config.json");
  std::filesystem::create_directory(ckpt + "/config.json");
  require_one_line_error("safetensors", ckpt, "config.json", "is a directory");
}

TEST_CASE("a config.json over the size limit is refused before it is read", "[model][errors]") {
  TempDir dir;
  const std::string ckpt = micro_checkpoint(dir);
  {
    std::ofstream out(ckpt + "/config.json", std::ios::trunc);
    out << "{\"pad\": \"";
    const std::string chunk(1 << 20, ' ');
    for (int i = 0; i < 17; ++i) out << chunk;
    out << "\"}";
  }
  require_one_line_error("safetensors", ckpt, "config.json",
                         "is larger than the 16 MiB (16777216 bytes) limit");
}
