#include "engine/model/safetensors_writer.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <vector>

#include "common/io/atomic_file.h"
#include "engine/model/hf_config.h"
#include "engine/model/safetensors_file.h"
#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

using nlohmann::json;

struct NamedTensor {
  std::string name;
  Tensor tensor;
};

// Tensors as safetensors can store them: the block formats become F32 (exact: each value is
// d * q).
std::vector<NamedTensor> storable_tensors(const ModelWeights& w) {
  std::vector<NamedTensor> out;
  w.for_each_tensor([&](const std::string& name, const Tensor& t) {
    out.push_back({name, is_block_quantized(t.dtype()) ? convert_tensor(t, DType::kF32) : t});
  });
  return out;
}

// The JSON header, padded with spaces to a multiple of 8 bytes so the data that follows is
// aligned (as the reference implementation does).
std::string header_json(const std::vector<NamedTensor>& tensors) {
  json header = json::object();
  header["__metadata__"] = {{"format", "pt"}};
  uint64_t offset = 0;
  for (const NamedTensor& t : tensors) {
    const uint64_t n = t.tensor.nbytes();
    header[t.name] = {{"dtype", safetensors_dtype_name(t.tensor.dtype())},
                      {"shape", t.tensor.shape()},
                      {"data_offsets", {offset, offset + n}}};
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
  for (const NamedTensor& t : tensors) f.write(t.tensor.raw(), t.tensor.nbytes());
  f.commit();
}

}  // namespace

void write_safetensors(const ModelWeights& w, const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error(dir + ": cannot create directory: " + ec.message());
  const std::vector<NamedTensor> tensors = storable_tensors(w);
  write_tensors(tensors, (std::filesystem::path(dir) / "model.safetensors").string());
  // A stale shard index would make loaders ignore the file just written.
  std::filesystem::remove(std::filesystem::path(dir) / "model.safetensors.index.json", ec);
  AtomicFile config((std::filesystem::path(dir) / "config.json").string());
  config.write(hf_config_json(w.config, tensors.front().tensor.dtype()));
  config.commit();
}

}  // namespace infergate
