// The named tensors of one checkpoint, taken one by one while a loader fills ModelWeights.
// Taking checks presence and shape; what is never taken is reported too, because a tensor the
// loader does not understand means it would silently compute a different model.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kernels/tensor.h"

namespace infergate {

class TensorTable {
 public:
  // `source` (a file or directory) names the checkpoint in "missing tensor" errors.
  explicit TensorTable(std::string source) : source_(std::move(source)) {}

  // Registers `tensor` (row-major shape) found in `file`; a repeated name is an error.
  void add(const std::string& name, Tensor tensor, const std::string& file);
  bool contains(const std::string& name) const { return entries_.count(name) > 0; }
  const std::string& source() const { return source_; }
  // The shape of `name` without taking it (for hyper-parameters a format leaves implicit).
  const std::vector<int64_t>& shape_of(const std::string& name) const;
  // Its dtype, likewise (FP8 codes are taken with their scales: hf_fp8.h).
  DType dtype_of(const std::string& name) const { return entry(name).tensor.dtype(); }

  // Removes and returns `name`; throws ModelLoadError when it is missing or has another shape.
  Tensor take(const std::string& name, const std::vector<int64_t>& shape);
  // As take(), stored as fp32 (ModelWeights keeps norm weights and biases in fp32).
  Tensor take_f32(const std::string& name, const std::vector<int64_t>& shape);
  // Drops tensors that carry nothing the model needs (e.g. rotary_emb.inv_freq).
  void discard(const std::string& name) { entries_.erase(name); }
  // Throws ModelLoadError naming the first tensor nobody took.
  void expect_all_taken() const;

 private:
  struct Entry {
    Tensor tensor;
    std::string file;
  };
  const Entry& entry(const std::string& name) const;

  std::string source_;
  std::map<std::string, Entry> entries_;
};

// A borrowed view of `stacked[index]` for a tensor of shape [n, ...]; keeps `stacked` alive.
Tensor slice_outer(const Tensor& stacked, int64_t index);

}  // namespace infergate
