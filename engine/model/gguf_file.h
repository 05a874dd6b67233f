// The GGUF container parsed from a memory-mapped file: metadata key/values and tensor infos,
// every length and offset checked against the file size before it is read. Knows nothing about
// models; gguf_reader maps its contents to ModelWeights.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/model/gguf_format.h"
#include "engine/model/mapped_file.h"
#include "kernels/tensor.h"

namespace infergate {

// One metadata value. Numbers are kept both exactly (`integer`, for integer and bool types) and
// as `number`; arrays keep their strings or numbers (nested arrays are checked, not kept).
struct GgufValue {
  GgufValueType type = GgufValueType::kUint8;
  GgufValueType elem_type = GgufValueType::kUint8;  // arrays only
  int64_t integer = 0;
  double number = 0;
  std::string text;
  std::vector<std::string> strings;
  std::vector<double> numbers;

  bool is_integer() const;
  bool is_number() const;  // integer, float or bool
  std::string type_name() const;
};

struct GgufTensorInfo {
  std::string name;
  std::vector<int64_t> ne;  // GGUF order: ne[0] is the row length (the reverse of our shape)
  uint32_t type = 0;        // ggml_type
  uint64_t offset = 0;      // from the start of the data section
};

class GgufFile {
 public:
  // Parses header, metadata and tensor infos; throws ModelLoadError naming the file.
  static GgufFile parse(std::shared_ptr<const MappedFile> file);

  const std::string& path() const { return file_->path(); }
  uint32_t version() const { return version_; }
  uint64_t alignment() const { return alignment_; }
  uint64_t data_offset() const { return data_offset_; }
  const std::map<std::string, GgufValue>& metadata() const { return metadata_; }
  const std::vector<GgufTensorInfo>& tensors() const { return tensors_; }

  const GgufValue* find(const std::string& key) const;
  // Typed getters: throw ModelLoadError naming the key when missing or of the wrong type.
  std::string get_string(const std::string& key) const;
  std::string get_string(const std::string& key, const std::string& fallback) const;
  int64_t get_int(const std::string& key) const;
  int64_t get_int(const std::string& key, int64_t fallback) const;
  double get_float(const std::string& key) const;
  double get_float(const std::string& key, double fallback) const;
  bool get_bool(const std::string& key, bool fallback) const;
  const GgufValue& get_array(const std::string& key, GgufValueType elem_type) const;

  // The tensor's bytes as a row-major Tensor (shape = reversed ne), borrowed from the mapping.
  // Throws for an unsupported ggml type or bytes past the end of the file.
  Tensor tensor(const GgufTensorInfo& info) const;

 private:
  explicit GgufFile(std::shared_ptr<const MappedFile> file) : file_(std::move(file)) {}
  const GgufValue& require(const std::string& key) const;

  std::shared_ptr<const MappedFile> file_;
  uint32_t version_ = 0;
  uint64_t alignment_ = kGgufDefaultAlignment;
  uint64_t data_offset_ = 0;
  std::map<std::string, GgufValue> metadata_;
  std::vector<GgufTensorInfo> tensors_;
};

}  // namespace infergate
