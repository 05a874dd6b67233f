// The safetensors container: an 8-byte little-endian header length N, N bytes of JSON
// ({"name": {"dtype", "shape", "data_offsets": [begin, end)}, "__metadata__": {...}}), then the
// tensor bytes, offsets relative to the end of the header.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "engine/model/mapped_file.h"
#include "engine/model/tensor_table.h"

namespace infergate {

inline constexpr uint64_t kSafetensorsMaxHeader = 100'000'000;  // the reference library's cap

// Adds every tensor of the memory-mapped `file` to `table`, borrowed from the mapping. The
// header is checked against the file size first; throws ModelLoadError naming the file. I32
// tensors (AWQ's packed codes, awq_layout.h) are added as their bytes: kI8 with the last
// dimension 4 times as long.
void add_safetensors_tensors(const std::shared_ptr<const MappedFile>& file, TensorTable& table);

// "F32" | "F16" | "BF16" | "F8_E4M3" (an fp8 checkpoint's bare codes, kF8E4M3); Q8_0 has no
// safetensors dtype (writers dequantize it).
const char* safetensors_dtype_name(DType dtype);
std::optional<DType> dtype_from_safetensors(const std::string& name);

}  // namespace infergate
