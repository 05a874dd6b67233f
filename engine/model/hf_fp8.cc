#include "engine/model/hf_fp8.h"

#include <cmath>
#include <vector>

#include "common/io/json_excerpt.h"
#include "engine/model/model_load_error.h"
#include "kernels/cpu/fp8_blocks.h"
#include "kernels/cpu/fp8_e4m3.h"

namespace infergate {

namespace {

using nlohmann::json;
using Granularity = Fp8Scheme::Granularity;

std::string shape_text(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}

// [bn, bk] with bn > 0 and bk a positive multiple of 128; `field` names it in errors.
void read_block(const json& v, const std::string& field, const std::string& path, Fp8Scheme& s) {
  const bool pair = v.is_array() && v.size() == 2 && v[0].is_number_unsigned() &&
                    v[1].is_number_unsigned() && v[0].get<int64_t>() > 0 &&
                    v[1].get<int64_t>() > 0 && v[0].get<uint64_t>() <= (1u << 20) &&
                    v[1].get<uint64_t>() <= (1u << 20);
  if (!pair || v[1].get<int64_t>() % kFp8Block != 0) {
    throw ModelLoadError(path,
                         field + " " + json_excerpt(v) +
                             " is not supported (a pair [rows, columns] whose column "
                             "block is a multiple of 128: one scale per 128 values of a row)");
  }
  s.granularity = Granularity::kBlock;
  s.block_rows = v[0].get<int64_t>();
  s.block_cols = v[1].get<int64_t>();
}

void require(bool ok, const std::string& path, const json& q, const std::string& rule) {
  if (!ok) {
    throw ModelLoadError(path,
                         "quantization_config " + json_excerpt(q) + " is not supported: " + rule);
  }
}

Fp8Scheme fine_grained(const json& q, const std::string& path) {
  require(!q.contains("fmt") || q["fmt"] == "e4m3", path, q, "fmt must be \"e4m3\"");
  Fp8Scheme s;
  if (q.contains("weight_block_size") && !q["weight_block_size"].is_null()) {
    read_block(q["weight_block_size"], "quantization_config.weight_block_size", path, s);
    s.scale_name = "weight_scale_inv";
  } else {
    s.scale_name = "weight_scale";  // AutoFP8: one scale per tensor
  }
  return s;
}

Fp8Scheme compressed_tensors(const json& q, const std::string& path) {
  require(q.value("format", "") == "float-quantized", path, q,
          "compressed-tensors is read for format \"float-quantized\" (FP8 weights)");
  const json groups = q.value("config_groups", json::object());
  require(groups.is_object() && groups.size() == 1, path, q,
          "compressed-tensors needs exactly one entry in config_groups");
  const json w = groups.begin()->value("weights", json());
  require(w.is_object() && w.value("num_bits", 0) == 8 && w.value("type", "") == "float" &&
              w.value("symmetric", true),
          path, q, "config_groups weights must be num_bits 8, type \"float\", symmetric");
  Fp8Scheme s;
  s.scale_name = "weight_scale";
  const std::string strategy = w.value("strategy", "");
  if (strategy == "channel") {
    s.granularity = Granularity::kChannel;
  } else if (strategy == "block") {
    read_block(w.value("block_structure", json()), "config_groups weights block_structure", path,
               s);
  } else {
    require(strategy == "tensor", path, q,
            "config_groups weights strategy must be \"tensor\", \"channel\" or \"block\"");
  }
  return s;
}

// The scale tensor's shape the scheme implies, given what the file has (per-tensor scales are
// [] or [1]; per-channel [out, 1] or [out]); "" when it matches, else what was expected.
std::string scale_shape_problem(const Fp8Scheme& s, int64_t out, int64_t in,
                                const std::vector<int64_t>& got) {
  switch (s.granularity) {
    case Granularity::kTensor:
      return got.empty() || got == std::vector<int64_t>{1} ? "" : "[] or [1] (one per tensor)";
    case Granularity::kChannel:
      return got == std::vector<int64_t>{out, 1} || got == std::vector<int64_t>{out}
                 ? ""
                 : shape_text({out, 1}) + " (one per output row)";
    case Granularity::kBlock: {
      const std::vector<int64_t> want = {(out + s.block_rows - 1) / s.block_rows,
                                         (in + s.block_cols - 1) / s.block_cols};
      return got == want
                 ? ""
                 : shape_text(want) + " (blocks of " + shape_text({s.block_rows, s.block_cols}) +
                       " over " + shape_text({out, in}) + ")";
    }
  }
  return "";
}

// The scale of row r's columns [c, c + 128).
float scale_at(const Fp8Scheme& s, const float* scales, int64_t in, int64_t r, int64_t c) {
  switch (s.granularity) {
    case Granularity::kTensor:
      return scales[0];
    case Granularity::kChannel:
      return scales[r];
    case Granularity::kBlock:
      return scales[(r / s.block_rows) * ((in + s.block_cols - 1) / s.block_cols) +
                    c / s.block_cols];
  }
  return 0;
}

}  // namespace

bool is_fp8_quant_method(const std::string& m) {
  return m == "fp8" || m == "fbgemm_fp8" || m == "compressed-tensors";
}

Fp8Scheme parse_fp8_scheme(const json& q, const std::string& path) {
  const std::string method = q.value("quant_method", "");
  if (method == "fp8") return fine_grained(q, path);
  if (method == "compressed-tensors") return compressed_tensors(q, path);
  require(method == "fbgemm_fp8", path, q, "quant_method is not an FP8 one");
  Fp8Scheme s;
  s.granularity = Granularity::kChannel;
  s.scale_name = "weight_scale";
  return s;
}

Tensor take_fp8_linear(TensorTable& t, const std::string& base, int64_t out, int64_t in,
                       const Fp8Scheme& scheme) {
  const std::string weight = base + ".weight", scale = base + "." + scheme.scale_name;
  if (in % kFp8Block != 0) {
    throw ModelLoadError(t.source(), "tensor '" + weight + "' has rows of " + std::to_string(in) +
                                         " values: fp8 weights need whole 128-value blocks");
  }
  const Tensor codes = t.take(weight, {out, in});
  const std::vector<int64_t> scale_shape = t.shape_of(scale);
  if (const std::string want = scale_shape_problem(scheme, out, in, scale_shape); !want.empty()) {
    throw ModelLoadError(
        t.source(), "tensor '" + scale + "' is " + shape_text(scale_shape) + ", expected " + want);
  }
  const Tensor scales = t.take_f32(scale, scale_shape);
  t.discard(base + ".input_scale");  // activations stay fp32 (hf_fp8.h)
  for (int64_t i = 0; i < scales.numel(); ++i) {
    const float v = scales.data<float>()[i];
    if (!std::isfinite(v) || v < 0) {
      throw ModelLoadError(t.source(), "tensor '" + scale + "' holds " + std::to_string(v) +
                                           " at flat index " + std::to_string(i) +
                                           " (scales must be finite and not negative)");
    }
  }
  Tensor w = Tensor::zeros(DType::kFP8, {out, in});
  const auto* code = codes.data<uint8_t>();
  auto* block = w.mutable_data<uint8_t>();
  for (int64_t r = 0; r < out; ++r) {
    for (int64_t c = 0; c < in; c += kFp8Block, block += kFp8BlockBytes) {
      const uint8_t* row_codes = code + r * in + c;
      for (int64_t j = 0; j < kFp8Block; ++j) {
        if (is_fp8_e4m3_nan(row_codes[j])) {
          throw ModelLoadError(t.source(), "tensor '" + weight + "' holds the e4m3 NaN code at [" +
                                               std::to_string(r) + ", " + std::to_string(c + j) +
                                               "]");
        }
      }
      make_block_fp8(row_codes, scale_at(scheme, scales.data<float>(), in, r, c), block);
    }
  }
  return w;
}

}  // namespace infergate
