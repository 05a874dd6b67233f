// AutoAWQ's packed layout (engine/model/awq_layout.h): the field order of its int32 words, the
// round trip to the Q4_1 blocks we compute on, and what the writer and reader refuse.
#include "engine/model/awq_layout.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "engine/model/mapped_file.h"
#include "engine/model/model_load_error.h"
#include "engine/model/safetensors_reader.h"
#include "engine/model/safetensors_writer.h"
#include "engine/model/synthetic_model.h"
#include "kernels/cpu/convert.h"
#include "model_formats_util.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

// 8 outputs, 32 inputs, one group: output column o has code o everywhere, zero point 8, scale 1.
AwqTensors column_codes() {
  AwqTensors a{32, 8, 32, {}, {}, {}};
  // Field j of a word holds column kAwqOrder[j] = 0, 2, 4, 6, 1, 3, 5, 7 (AutoAWQ's order_map).
  a.qweight.assign(32, int32_t(0x75316420));
  a.qzeros.assign(1, int32_t(0x88888888u));
  a.scales.assign(8, f32_to_f16(1.0f));
  return a;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("AWQ words hold output columns in AutoAWQ's interleaved order", "[model][awq]") {
  const Tensor q = unpack_awq(column_codes());
  REQUIRE(q.dtype() == DType::kQ4_1);
  REQUIRE(q.shape() == std::vector<int64_t>{8, 32});
  float values[32];
  for (int o = 0; o < 8; ++o) {
    dequantize_block(q.data<uint8_t>() + o * kQ4_1BlockBytes, DType::kQ4_1, values);
    for (float v : values) CHECK(v == float(o - 8));
  }
  const AwqTensors back = pack_awq(q, 32, "w");
  CHECK(back.qweight == column_codes().qweight);
  CHECK(back.qzeros == column_codes().qzeros);
  CHECK(back.scales == column_codes().scales);
}

TEST_CASE("the AWQ layout refuses Q4_1 that is not group-wise INT4", "[model][awq]") {
  ModelWeights w = make_synthetic_model(dense_gqa_config(), 3);
  w.convert_matrices(DType::kQ4_1);  // llama.cpp's Q4_1: a float minimum per 32, no zero point
  CHECK_THROWS_WITH(pack_awq(w.layers[0].wq, 32, "wq"),
                    Catch::Contains("wq is not group-wise INT4 for the AWQ layout: row 0 group 0 "
                                    "has no integer zero point"));
  w = make_synthetic_model(dense_gqa_config(), 3);
  w.convert_matrices_int4(32);
  CHECK_THROWS_WITH(pack_awq(w.layers[0].wq, 128, "wq"),
                    Catch::Contains("rows of 288 values are not whole groups of 128"));
  CHECK_THROWS_WITH(pack_awq(w.layers[0].wq, 96, "wq"),
                    Catch::Contains("row 0 group 0 has more than one scale"));
  CHECK_THROWS_WITH(pack_awq(w.layers[0].wq, 64, "wq"), Catch::Contains("whole groups of 64"));
  TempDir dir;
  CHECK_THROWS_WITH(write_safetensors(w, dir.file("m"), 128),
                    Catch::Contains("not whole groups of 128"));
  CHECK_FALSE(std::filesystem::exists(dir.file("m/model.safetensors")));
}

TEST_CASE("reading AWQ needs a quantization_config that says AWQ gemm", "[model][awq]") {
  ModelWeights w = make_synthetic_model(dense_gqa_config(), 4);
  w.convert_matrices_int4(32);
  TempDir dir;
  write_safetensors(w, dir.file("m"), 32);
  const std::string config_path = dir.file("m/config.json");
  const std::string config = read_text_file(config_path);
  write_text(config_path, replaced(config, "\"awq\"", "\"gptq\""));
  CHECK_THROWS_WITH(read_safetensors(dir.file("m")),
                    Catch::Contains("config.json: quantization_config") &&
                        Catch::Contains("is not supported (allowed: quant_method \"awq\""));
  write_text(config_path, replaced(config, "\"quantization_config\"", "\"not_quantization\""));
  CHECK_THROWS_WITH(read_safetensors(dir.file("m")),
                    Catch::Contains("has 'model.layers.0.self_attn.q_proj.qweight' but no "
                                    "quantization_config"));
  write_text(config_path, config);
  CHECK(read_safetensors(dir.file("m")).layers[1].ffn.down.dtype() == DType::kQ4_1);
}
