#include "engine/model/safetensors_file.h"

#include <cstring>
#include <nlohmann/json.hpp>
#include <string_view>

#include "common/io/json_excerpt.h"
#include "common/io/json_text.h"
#include "engine/model/model_load_error.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr int64_t kMaxElements = int64_t(1) << 56;

// The JSON header as an object, after checking its length against the file.
json read_header(const MappedFile& f, uint64_t* data_start) {
  if (f.size() < 8) {
    throw ModelLoadError(f.path(),
                         "truncated: the 8-byte header length needs 8 bytes but the "
                         "file has " +
                             std::to_string(f.size()) + " bytes");
  }
  uint64_t n = 0;
  std::memcpy(&n, f.data(), 8);
  if (n > kSafetensorsMaxHeader) {
    throw ModelLoadError(f.path(), "header length " + std::to_string(n) + " exceeds the limit of " +
                                       std::to_string(kSafetensorsMaxHeader) + " bytes");
  }
  if (n > f.size() - 8) {
    throw ModelLoadError(f.path(), "truncated: header length " + std::to_string(n) +
                                       " needs bytes [8, " + std::to_string(8 + n) +
                                       ") but the file has " + std::to_string(f.size()) + " bytes");
  }
  *data_start = 8 + n;
  const char* text = reinterpret_cast<const char*>(f.data() + 8);
  json header;
  try {
    header = parse_json_text(std::string_view(text, size_t(n)), /*ignore_comments=*/false,
                             /*unique_keys=*/true);
  } catch (const JsonTextError& e) {  // the position is in the header, which starts at byte 8
    throw ModelLoadError(f.path(), std::string("bad header JSON ") + e.what());
  }
  if (!header.is_object()) throw ModelLoadError(f.path(), "bad header: not a JSON object");
  return header;
}

std::vector<int64_t> read_shape(const MappedFile& f, const std::string& name, const json& s) {
  std::vector<int64_t> shape;
  int64_t numel = 1;
  if (!s.is_array()) throw ModelLoadError(f.path(), "bad header: '" + name + "' has no shape");
  for (const json& d : s) {
    if (!d.is_number_unsigned() || d.get<uint64_t>() > uint64_t(kMaxElements) ||
        (d.get<int64_t>() > 0 && numel > kMaxElements / d.get<int64_t>())) {
      throw ModelLoadError(f.path(), "bad header: '" + name + "' has shape " + json_excerpt(s));
    }
    shape.push_back(d.get<int64_t>());
    numel *= shape.back();
  }
  return shape;
}

// Adds one header entry after checking its dtype, shape and byte range.
void add_entry(const std::shared_ptr<const MappedFile>& file, uint64_t data_start,
               const std::string& name, const json& e, TensorTable& table) {
  const MappedFile& f = *file;
  if (!e.is_object() || !e.contains("dtype") || !e["dtype"].is_string() ||
      !e.contains("data_offsets") || !e["data_offsets"].is_array() ||
      e["data_offsets"].size() != 2 || !e["data_offsets"][0].is_number_unsigned() ||
      !e["data_offsets"][1].is_number_unsigned()) {
    throw ModelLoadError(f.path(), "bad header entry for '" + name + "': " + json_excerpt(e));
  }
  const std::string dtype_name = e["dtype"].get<std::string>();
  const bool int32 = dtype_name == "I32";
  const std::optional<DType> dtype = int32 ? DType::kI8 : dtype_from_safetensors(dtype_name);
  if (!dtype) {
    throw ModelLoadError(f.path(), "unsupported dtype '" + dtype_name + "' for '" + name +
                                       "' (supported: F32, F16, BF16, F8_E4M3, I32)");
  }
  static const json kNoShape;
  const auto shape_it = e.find("shape");  // not e.value(), which would copy it
  std::vector<int64_t> shape = read_shape(f, name, shape_it == e.end() ? kNoShape : *shape_it);
  if (int32) {  // held as its bytes: the last dimension counts 4 per value
    if (shape.empty()) shape.push_back(1);
    if (shape.back() > kMaxElements / 4) {
      throw ModelLoadError(f.path(), "bad header: '" + name + "' has shape " +
                                         json_excerpt(shape_it == e.end() ? kNoShape : *shape_it));
    }
    shape.back() *= 4;
  }
  const uint64_t begin = e["data_offsets"][0].get<uint64_t>();
  const uint64_t end = e["data_offsets"][1].get<uint64_t>();
  const uint64_t data_size = f.size() - data_start;
  if (begin > end || end > data_size) {
    throw ModelLoadError(f.path(), "truncated or corrupt: tensor '" + name + "' data_offsets [" +
                                       std::to_string(begin) + ", " + std::to_string(end) +
                                       ") run past the " + std::to_string(data_size) +
                                       " data bytes");
  }
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  if (end - begin != dtype_bytes(*dtype, numel)) {
    throw ModelLoadError(f.path(), "shape mismatch: tensor '" + name + "' has " +
                                       std::to_string(end - begin) + " bytes for shape " +
                                       json_excerpt(shape_it == e.end() ? kNoShape : *shape_it) +
                                       " of " + dtype_name);
  }
  table.add(name, map_tensor(file, data_start + begin, *dtype, std::move(shape)), f.path());
}

}  // namespace

void add_safetensors_tensors(const std::shared_ptr<const MappedFile>& file, TensorTable& table) {
  uint64_t data_start = 0;
  const json header = read_header(*file, &data_start);
  for (const auto& [name, entry] : header.items()) {
    if (name != "__metadata__") add_entry(file, data_start, name, entry, table);
  }
}

const char* safetensors_dtype_name(DType dtype) {
  switch (dtype) {
    case DType::kF32:
      return "F32";
    case DType::kF16:
      return "F16";
    case DType::kBF16:
      return "BF16";
    case DType::kF8E4M3:  // an fp8 checkpoint's codes (its scales in another tensor)
      return "F8_E4M3";
    case DType::kQ8_0:
    case DType::kQ4_0:
    case DType::kQ4_1:
    case DType::kQ4_K:
    INFERGATE_CASE_PLANE_DTYPES:
    case DType::kW8A8:
    case DType::kFP8:  // written as F8_E4M3 codes plus scales (safetensors_writer.cc)
    case DType::kI8:   // a KV cache format, never in a model file
      break;
  }
  return nullptr;
}

std::optional<DType> dtype_from_safetensors(const std::string& name) {
  if (name == "F32") return DType::kF32;
  if (name == "F16") return DType::kF16;
  if (name == "BF16") return DType::kBF16;
  if (name == "F8_E4M3") return DType::kF8E4M3;
  return std::nullopt;
}

}  // namespace infergate
