#include "engine/model/safetensors_writer.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "common/io/atomic_file.h"
#include "engine/model/awq_layout.h"
#include "engine/model/hf_config.h"
#include "engine/model/safetensors_file.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/fp8_blocks.h"

namespace infergate {

namespace {

using nlohmann::json;

// One entry of the file: `bytes` holds the data (for I32, int32 values as kI8 bytes).
struct NamedTensor {
  std::string name;
  std::string dtype;  // safetensors name
  std::vector<int64_t> shape;
  Tensor bytes;
};

NamedTensor stored_as_is(const std::string& name, const Tensor& t) {
  return {name, safetensors_dtype_name(t.dtype()), t.shape(), t};
}

template <typename T>
NamedTensor stored_values(const std::string& name, const char* dtype, std::vector<int64_t> shape,
                          const std::vector<T>& values) {
  Tensor bytes = Tensor::zeros(DType::kI8, {int64_t(values.size() * sizeof(T))});
  std::memcpy(bytes.mutable_raw(), values.data(), values.size() * sizeof(T));
  return {name, dtype, std::move(shape), std::move(bytes)};
}

// "model.layers.0.mlp.up_proj.weight" -> the three AWQ tensors of "model.layers.0.mlp.up_proj".
void add_awq(std::vector<NamedTensor>& out, const std::string& name, const Tensor& t,
             int64_t group) {
  const std::string base = name.substr(0, name.size() - std::string(".weight").size());
  const AwqTensors a = pack_awq(t, group, name);
  out.push_back(stored_values(base + ".qweight", "I32", {a.in, a.out / 8}, a.qweight));
  out.push_back(stored_values(base + ".qzeros", "I32", {a.in / group, a.out / 8}, a.qzeros));
  out.push_back(stored_values(base + ".scales", "F16", {a.in / group, a.out}, a.scales));
}

// The rows of an fp8 matrix share one scale per 128x128 tile (quantize_fp8_tiles); the
// codes go out as F8_E4M3 and the tiles' scales as `weight_scale_inv`, DeepSeek-V3's layout.
void add_fp8(std::vector<NamedTensor>& out, const std::string& name, const Tensor& t) {
  const std::string base = name.substr(0, name.size() - std::string(".weight").size());
  const int64_t n = t.dim(0), k = t.dim(1), blocks = k / kFp8Block;
  const int64_t bands = (n + kFp8Block - 1) / kFp8Block;
  Tensor codes = Tensor::zeros(DType::kF8E4M3, {n, k});
  std::vector<float> scales(size_t(bands * blocks));
  const auto* block = t.data<uint8_t>();
  for (int64_t r = 0; r < n; ++r) {
    for (int64_t b = 0; b < blocks; ++b, block += kFp8BlockBytes) {
      float s;
      std::memcpy(&s, block, 4);
      float& tile = scales[size_t((r / kFp8Block) * blocks + b)];
      if (r % kFp8Block == 0) tile = s;
      if (s != tile) {
        throw std::invalid_argument(
            "tensor '" + name + "' has fp8 scales that differ within a 128x128 block (row " +
            std::to_string(r) +
            "), as a per-channel checkpoint's do: the safetensors export "
            "writes weight_block_size [128, 128] (convert it with --dtype bf16 or f32 instead)");
      }
      std::memcpy(codes.mutable_data<uint8_t>() + r * k + b * kFp8Block, block + 4, kFp8Block);
    }
  }
  out.push_back({name, "F8_E4M3", {n, k}, std::move(codes)});
  out.push_back(stored_values(base + ".weight_scale_inv", "F32", {bands, blocks}, scales));
}

// The embedding and the output head stay unquantized in FP8 checkpoints (transformers
// quantizes neither): an fp8 one is written as F32, which holds its values exactly.
bool fp8_writable(const std::string& name) {
  return name != "model.embed_tokens.weight" && name != "lm_head.weight";
}

// Tensors as safetensors can store them: Q4_1 matrices in the AWQ layout when awq_group > 0,
// fp8 matrices as F8_E4M3 with their scales, other block formats as F32 (exact: each value is
// d * q).
std::vector<NamedTensor> storable_tensors(const ModelWeights& w, int64_t awq_group) {
  std::vector<NamedTensor> out;
  w.for_each_tensor([&](const std::string& name, const Tensor& t) {
    if (awq_group > 0 && t.dtype() == DType::kQ4_1) {
      add_awq(out, name, t, awq_group);
    } else if (t.dtype() == DType::kFP8 && fp8_writable(name)) {
      add_fp8(out, name, t);
    } else {
      out.push_back(
          stored_as_is(name, is_block_quantized(t.dtype()) ? convert_tensor(t, DType::kF32) : t));
    }
  });
  return out;
}

bool has_fp8(const std::vector<NamedTensor>& tensors) {
  return std::any_of(tensors.begin(), tensors.end(),
                     [](const NamedTensor& t) { return t.dtype == "F8_E4M3"; });
}

std::string config_text(const ModelWeights& w, int64_t awq_group, bool fp8) {
  const std::string text = hf_config_json(w.config, w.embed.dtype());
  if (awq_group == 0 && !fp8) return text;
  json config = json::parse(text);
  if (fp8) {
    config["quantization_config"] = {{"quant_method", "fp8"},
                                     {"fmt", "e4m3"},
                                     {"activation_scheme", "dynamic"},
                                     {"weight_block_size", {kFp8Block, kFp8Block}}};
  } else {
    config["quantization_config"] = {{"quant_method", "awq"},
                                     {"bits", 4},
                                     {"group_size", awq_group},
                                     {"zero_point", true},
                                     {"version", "gemm"}};
  }
  return config.dump(2) + "\n";
}

// The JSON header, padded with spaces to a multiple of 8 bytes so the data that follows is
// aligned (as the reference implementation does).
std::string header_json(const std::vector<NamedTensor>& tensors) {
  json header = json::object();
  header["__metadata__"] = {{"format", "pt"}};
  uint64_t offset = 0;
  for (const NamedTensor& t : tensors) {
    const uint64_t n = t.bytes.nbytes();
    header[t.name] = {
        {"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + n}}};
    offset += n;
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  return text;
}

void write_tensors(const std::vector<NamedTensor>& tensors, const std::string& path) {
  const std::string header = header_json(tensors);
  AtomicFile f(path);
  const uint64_t n = header.size();
  f.write(&n, sizeof(n));
  f.write(header);
  for (const NamedTensor& t : tensors) f.write(t.bytes.raw(), t.bytes.nbytes());
  f.commit();
}

}  // namespace

void write_safetensors(const ModelWeights& w, const std::string& dir, int64_t awq_group) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
  const std::vector<NamedTensor> tensors = storable_tensors(w, awq_group);
  write_tensors(tensors, (std::filesystem::path(dir) / "model.safetensors").string());
  // A stale shard index would make loaders ignore the file just written.
  std::filesystem::remove(std::filesystem::path(dir) / "model.safetensors.index.json", ec);
  AtomicFile config((std::filesystem::path(dir) / "config.json").string());
  config.write(config_text(w, awq_group, has_fp8(tensors)));
  config.commit();
}

}  // namespace infergate
