#include "engine/model/gguf_file.h"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <cstring>
#include <limits>

#include "engine/model/model_load_error.h"

namespace infergate {

static_assert(std::endian::native == std::endian::little, "GGUF is read as little-endian");

namespace {

constexpr uint64_t kMaxKeyLength = 65535;       // spec: keys are at most 2^16 - 1 bytes
constexpr uint64_t kMaxStringLength = 1 << 26;  // 64 MiB: far above any real value
constexpr int kMaxArrayDepth = 3;
constexpr uint32_t kMaxDims = 4;  // GGML_MAX_DIMS
constexpr int64_t kMaxElements = int64_t(1) << 56;

// A bounds-checked read position in the mapping: every read names what it was reading, so a
// truncated file reports where it ends.
class Cursor {
 public:
  explicit Cursor(const MappedFile& f) : f_(f) {}

  uint64_t pos() const { return pos_; }
  uint64_t remaining() const { return f_.size() - pos_; }

  void need(uint64_t n, const std::string& what) const {
    if (n > remaining()) {
      throw ModelLoadError(f_.path(), "truncated: " + what + " needs " + std::to_string(n) +
                                          " bytes at offset " + std::to_string(pos_) +
                                          " but the file has " + std::to_string(f_.size()) +
                                          " bytes");
    }
  }
  // For `count` items of at least `min_bytes` each: rejects absurd counts before allocating.
  void need_each(uint64_t count, uint64_t min_bytes, const std::string& what) const {
    if (count > remaining() / min_bytes) {
      throw ModelLoadError(f_.path(), "truncated: " + what + " of " + std::to_string(count) +
                                          " entries cannot fit in the " +
                                          std::to_string(remaining()) +
                                          " bytes left after offset " + std::to_string(pos_));
    }
  }
  template <typename T>
  T read(const std::string& what) {
    need(sizeof(T), what);
    T v;
    std::memcpy(&v, f_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return v;
  }
  std::string read_string(const std::string& what, uint64_t max_length) {
    const uint64_t n = read<uint64_t>(what + " length");
    if (n > max_length) {
      throw ModelLoadError(f_.path(), what + " is " + std::to_string(n) + " bytes long (limit " +
                                          std::to_string(max_length) + ")");
    }
    need(n, what);
    std::string s(reinterpret_cast<const char*>(f_.data() + pos_), size_t(n));
    pos_ += n;
    return s;
  }

 private:
  const MappedFile& f_;
  uint64_t pos_ = 0;
};

bool is_integer_type(GgufValueType t) {
  return t <= GgufValueType::kInt32 || t == GgufValueType::kBool || t == GgufValueType::kUint64 ||
         t == GgufValueType::kInt64;
}

// Smallest encoding of one value of type `t`, used to reject absurd array counts early.
uint64_t min_value_bytes(GgufValueType t) {
  switch (t) {
    case GgufValueType::kUint8:
    case GgufValueType::kInt8:
    case GgufValueType::kBool:
      return 1;
    case GgufValueType::kUint16:
    case GgufValueType::kInt16:
      return 2;
    case GgufValueType::kUint32:
    case GgufValueType::kInt32:
    case GgufValueType::kFloat32:
      return 4;
    case GgufValueType::kString:
    case GgufValueType::kUint64:
    case GgufValueType::kInt64:
    case GgufValueType::kFloat64:
      return 8;
    case GgufValueType::kArray:
      return 12;
  }
  return 1;
}

GgufValueType read_type(Cursor& c, const MappedFile& f, const std::string& key) {
  const uint32_t t = c.read<uint32_t>("value type of '" + key + "'");
  if (t > uint32_t(GgufValueType::kFloat64)) {
    throw ModelLoadError(f.path(),
                         "metadata '" + key + "' has unknown value type " + std::to_string(t));
  }
  return GgufValueType(t);
}

void read_scalar(Cursor& c, const MappedFile& f, const std::string& key, GgufValue& v) {
  const std::string what = "value of '" + key + "'";
  switch (v.type) {
    case GgufValueType::kUint8:
      v.integer = c.read<uint8_t>(what);
      break;
    case GgufValueType::kInt8:
      v.integer = c.read<int8_t>(what);
      break;
    case GgufValueType::kUint16:
      v.integer = c.read<uint16_t>(what);
      break;
    case GgufValueType::kInt16:
      v.integer = c.read<int16_t>(what);
      break;
    case GgufValueType::kUint32:
      v.integer = c.read<uint32_t>(what);
      break;
    case GgufValueType::kInt32:
      v.integer = c.read<int32_t>(what);
      break;
    case GgufValueType::kInt64:
      v.integer = c.read<int64_t>(what);
      break;
    case GgufValueType::kUint64: {
      const uint64_t u = c.read<uint64_t>(what);
      v.integer = int64_t(std::min<uint64_t>(u, uint64_t(std::numeric_limits<int64_t>::max())));
      break;
    }
    case GgufValueType::kBool: {
      const uint8_t b = c.read<uint8_t>(what);
      if (b > 1) throw ModelLoadError(f.path(), "bool '" + key + "' is " + std::to_string(b));
      v.integer = b;
      break;
    }
    case GgufValueType::kFloat32:
      v.number = c.read<float>(what);
      return;
    case GgufValueType::kFloat64:
      v.number = c.read<double>(what);
      return;
    case GgufValueType::kString:
      v.text = c.read_string(what, kMaxStringLength);
      return;
    case GgufValueType::kArray:
      return;
  }
  v.number = double(v.integer);
}

GgufValue read_value(Cursor& c, const MappedFile& f, const std::string& key, GgufValueType type,
                     int depth);

void read_array(Cursor& c, const MappedFile& f, const std::string& key, int depth, GgufValue& v) {
  if (depth > kMaxArrayDepth) throw ModelLoadError(f.path(), "'" + key + "': arrays nest too deep");
  v.elem_type = read_type(c, f, key);
  const uint64_t count = c.read<uint64_t>("array length of '" + key + "'");
  const uint64_t min_bytes = min_value_bytes(v.elem_type);
  c.need_each(count, min_bytes, "array '" + key + "'");
  if (v.elem_type == GgufValueType::kString) v.strings.reserve(size_t(count));
  if (v.elem_type != GgufValueType::kString && v.elem_type != GgufValueType::kArray) {
    v.numbers.reserve(size_t(count));
  }
  for (uint64_t i = 0; i < count; ++i) {
    GgufValue e = read_value(c, f, key, v.elem_type, depth + 1);
    if (v.elem_type == GgufValueType::kString) {
      v.strings.push_back(std::move(e.text));
    } else if (v.elem_type != GgufValueType::kArray) {
      v.numbers.push_back(e.number);
    }
  }
}

GgufValue read_value(Cursor& c, const MappedFile& f, const std::string& key, GgufValueType type,
                     int depth) {
  GgufValue v;
  v.type = type;
  if (type == GgufValueType::kArray) {
    read_array(c, f, key, depth, v);
  } else {
    read_scalar(c, f, key, v);
  }
  return v;
}

uint32_t read_version(Cursor& c, const MappedFile& f) {
  const uint32_t magic = c.read<uint32_t>("magic");
  if (magic != kGgufMagic) {
    char hex[16];
    std::snprintf(hex, sizeof(hex), "0x%08x", magic);
    throw ModelLoadError(f.path(), std::string("bad magic ") + hex + " (not a GGUF file)");
  }
  const uint32_t version = c.read<uint32_t>("version");
  if (version == 0x03000000u || version == 0x02000000u) {
    throw ModelLoadError(f.path(), "big-endian GGUF is not supported");
  }
  if (version != 2 && version != kGgufVersion) {  // v2 and v3 share one layout
    throw ModelLoadError(
        f.path(), "unsupported GGUF version " + std::to_string(version) + " (supported: 2, 3)");
  }
  return version;
}

uint64_t checked_count(Cursor& c, const std::string& what, uint64_t min_bytes_each) {
  const uint64_t n = c.read<uint64_t>(what + " count");
  c.need_each(n, min_bytes_each, what);
  return n;
}

GgufTensorInfo read_tensor_info(Cursor& c, const MappedFile& f, uint64_t alignment) {
  GgufTensorInfo t;
  t.name = c.read_string("tensor name", kGgufMaxNameLength);
  const std::string what = "tensor '" + t.name + "'";
  const uint32_t n_dims = c.read<uint32_t>(what + " rank");
  if (n_dims == 0 || n_dims > kMaxDims) {
    throw ModelLoadError(f.path(),
                         what + " has " + std::to_string(n_dims) + " dimensions (allowed: 1 to 4)");
  }
  int64_t numel = 1;
  for (uint32_t i = 0; i < n_dims; ++i) {
    const uint64_t d = c.read<uint64_t>(what + " dimension");
    if (d == 0 || d > uint64_t(kMaxElements) || numel > kMaxElements / int64_t(d)) {
      throw ModelLoadError(f.path(), what + " has an invalid dimension " + std::to_string(d));
    }
    numel *= int64_t(d);
    t.ne.push_back(int64_t(d));
  }
  t.type = c.read<uint32_t>(what + " type");
  t.offset = c.read<uint64_t>(what + " offset");
  if (t.offset % alignment != 0) {
    throw ModelLoadError(f.path(), what + " offset " + std::to_string(t.offset) +
                                       " is not a multiple of the alignment " +
                                       std::to_string(alignment));
  }
  return t;
}

}  // namespace

bool GgufValue::is_integer() const { return is_integer_type(type); }

bool GgufValue::is_number() const {
  return is_integer() || type == GgufValueType::kFloat32 || type == GgufValueType::kFloat64;
}

std::string GgufValue::type_name() const {
  static const char* kNames[] = {"uint8",  "int8",    "uint16", "int16",  "uint32",
                                 "int32",  "float32", "bool",   "string", "array",
                                 "uint64", "int64",   "float64"};
  return kNames[size_t(type)];
}

GgufFile GgufFile::parse(std::shared_ptr<const MappedFile> file) {
  GgufFile g(std::move(file));
  const MappedFile& f = *g.file_;
  Cursor c(f);
  g.version_ = read_version(c, f);
  const uint64_t n_tensors = checked_count(c, "tensor infos", 32);
  const uint64_t n_kv = checked_count(c, "metadata entries", 13);
  for (uint64_t i = 0; i < n_kv; ++i) {
    std::string key = c.read_string("metadata key", kMaxKeyLength);
    const GgufValueType type = read_type(c, f, key);
    GgufValue v = read_value(c, f, key, type, 0);
    if (!g.metadata_.emplace(key, std::move(v)).second) {
      throw ModelLoadError(f.path(), "duplicate metadata key '" + key + "'");
    }
  }
  if (const GgufValue* a = g.find("general.alignment")) {
    if (!a->is_integer() || a->integer <= 0 || a->integer > (1 << 20) ||
        std::popcount(uint64_t(a->integer)) != 1) {
      throw ModelLoadError(f.path(), "general.alignment must be a power of two, got " +
                                         (a->is_number() ? std::to_string(a->number) : a->text));
    }
    g.alignment_ = uint64_t(a->integer);
  }
  for (uint64_t i = 0; i < n_tensors; ++i) {
    g.tensors_.push_back(read_tensor_info(c, f, g.alignment_));
  }
  g.data_offset_ = (c.pos() + g.alignment_ - 1) / g.alignment_ * g.alignment_;
  return g;
}

const GgufValue* GgufFile::find(const std::string& key) const {
  const auto it = metadata_.find(key);
  return it == metadata_.end() ? nullptr : &it->second;
}

const GgufValue& GgufFile::require(const std::string& key) const {
  const GgufValue* v = find(key);
  if (!v) throw ModelLoadError(path(), "missing metadata key '" + key + "'");
  return *v;
}

namespace {
ModelLoadError wrong_type(const std::string& path, const std::string& key, const GgufValue& v,
                          const char* expected) {
  return ModelLoadError(path,
                        "metadata '" + key + "' is " + v.type_name() + ", expected " + expected);
}
}  // namespace

std::string GgufFile::get_string(const std::string& key) const {
  const GgufValue& v = require(key);
  if (v.type != GgufValueType::kString) throw wrong_type(path(), key, v, "a string");
  return v.text;
}

std::string GgufFile::get_string(const std::string& key, const std::string& fallback) const {
  return find(key) ? get_string(key) : fallback;
}

int64_t GgufFile::get_int(const std::string& key) const {
  const GgufValue& v = require(key);
  if (!v.is_integer() || v.type == GgufValueType::kBool) {
    throw wrong_type(path(), key, v, "an integer");
  }
  return v.integer;
}

int64_t GgufFile::get_int(const std::string& key, int64_t fallback) const {
  return find(key) ? get_int(key) : fallback;
}

double GgufFile::get_float(const std::string& key) const {
  const GgufValue& v = require(key);
  if (!v.is_number() || v.type == GgufValueType::kBool) {
    throw wrong_type(path(), key, v, "a number");
  }
  return v.number;
}

double GgufFile::get_float(const std::string& key, double fallback) const {
  return find(key) ? get_float(key) : fallback;
}

bool GgufFile::get_bool(const std::string& key, bool fallback) const {
  const GgufValue* v = find(key);
  if (!v) return fallback;
  if (v->type != GgufValueType::kBool) throw wrong_type(path(), key, *v, "a bool");
  return v->integer != 0;
}

const GgufValue& GgufFile::get_array(const std::string& key, GgufValueType elem_type) const {
  const GgufValue& v = require(key);
  const bool numeric_ok = elem_type != GgufValueType::kString &&
                          v.elem_type != GgufValueType::kString &&
                          v.elem_type != GgufValueType::kArray;
  if (v.type != GgufValueType::kArray || (v.elem_type != elem_type && !numeric_ok)) {
    throw wrong_type(
        path(), key, v,
        elem_type == GgufValueType::kString ? "an array of strings" : "an array of numbers");
  }
  return v;
}

Tensor GgufFile::tensor(const GgufTensorInfo& info) const {
  const std::optional<DType> dtype = dtype_from_ggml(info.type);
  if (!dtype) {
    throw ModelLoadError(path(), "unsupported tensor type " + std::to_string(info.type) + " (" +
                                     ggml_type_name(info.type) + ") for '" + info.name +
                                     "' (supported: F32, F16, BF16, Q8_0, Q4_0, Q4_1, Q5_0, "
                                     "Q5_1, Q2_K, Q3_K, Q4_K, Q5_K, Q6_K, IQ4_NL, IQ4_XS)");
  }
  if (info.ne[0] % dtype_block_elems(*dtype) != 0) {
    throw ModelLoadError(path(), "tensor '" + info.name + "' is " + ggml_type_name(info.type) +
                                     " but its row length " + std::to_string(info.ne[0]) +
                                     " is not a multiple of " +
                                     std::to_string(dtype_block_elems(*dtype)));
  }
  const std::vector<int64_t> shape(info.ne.rbegin(), info.ne.rend());
  int64_t numel = 1;
  for (int64_t d : shape) numel *= d;
  const uint64_t nbytes = dtype_bytes(*dtype, numel);
  const uint64_t size = file_->size();
  const bool inside = data_offset_ <= size && info.offset <= size - data_offset_ &&
                      nbytes <= size - data_offset_ - info.offset;
  if (!inside) {
    const uint64_t kSane = uint64_t(1) << 62;  // keeps the sums below from wrapping
    char range[96];  // snprintf: GCC 12 misfires -Wrestrict on chained string operator+
    if (info.offset < kSane) {
      std::snprintf(range, sizeof(range), "[%llu, %llu)",
                    static_cast<unsigned long long>(data_offset_ + info.offset),
                    static_cast<unsigned long long>(data_offset_ + info.offset + nbytes));
    } else {
      std::snprintf(range, sizeof(range), "at data offset %llu",
                    static_cast<unsigned long long>(info.offset));
    }
    throw ModelLoadError(path(), "truncated: tensor '" + info.name + "' needs bytes " +
                                     std::string(range) + " but the file has " +
                                     std::to_string(size) + " bytes");
  }
  const uint64_t begin = data_offset_ + info.offset;
  return map_tensor(file_, begin, *dtype, shape);
}

}  // namespace infergate
