#include "engine/model/tensor_table.h"

#include <memory>

#include "engine/model/model_load_error.h"
#include "kernels/cpu/convert.h"

namespace infergate {

namespace {
std::string shape_string(const std::vector<int64_t>& shape) {
  std::string s = "[";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + "]";
}
}  // namespace

void TensorTable::add(const std::string& name, Tensor tensor, const std::string& file) {
  if (entries_.count(name)) {
    throw ModelLoadError(
        file, "tensor '" + name + "' appears twice (also in " + entries_.at(name).file + ")");
  }
  entries_.emplace(name, Entry{std::move(tensor), file});
}

const TensorTable::Entry& TensorTable::entry(const std::string& name) const {
  const auto it = entries_.find(name);
  if (it == entries_.end()) throw ModelLoadError(source_, "missing tensor '" + name + "'");
  return it->second;
}

const std::vector<int64_t>& TensorTable::shape_of(const std::string& name) const {
  return entry(name).tensor.shape();
}

Tensor TensorTable::take(const std::string& name, const std::vector<int64_t>& shape) {
  const Entry& e = entry(name);
  if (e.tensor.shape() != shape) {
    throw ModelLoadError(e.file, "shape mismatch: tensor '" + name + "' is " +
                                     e.tensor.shape_string() + ", expected " + shape_string(shape));
  }
  Tensor t = e.tensor;
  entries_.erase(name);
  return t;
}

Tensor TensorTable::take_f32(const std::string& name, const std::vector<int64_t>& shape) {
  Tensor t = take(name, shape);
  return t.dtype() == DType::kF32 ? t : convert_tensor(t, DType::kF32);
}

void TensorTable::expect_all_taken() const {
  if (entries_.empty()) return;
  const auto& [name, e] = *entries_.begin();
  throw ModelLoadError(e.file, "unexpected tensor '" + name + "' (" +
                                   std::to_string(entries_.size()) +
                                   " tensor(s) this loader does not know how to use)");
}

Tensor slice_outer(const Tensor& stacked, int64_t index) {
  std::vector<int64_t> shape(stacked.shape().begin() + 1, stacked.shape().end());
  const size_t bytes = stacked.nbytes() / size_t(stacked.dim(0));
  const auto keep = std::make_shared<const Tensor>(stacked);
  const uint8_t* base = static_cast<const uint8_t*>(stacked.raw());
  return Tensor::borrow(stacked.dtype(), std::move(shape), base + size_t(index) * bytes, keep);
}

}  // namespace infergate
