// The operations a forward pass is made of, as one backend runs them. The transformer
// (transformer.h) is written once against this interface; the CPU implements it over
// kernels/cpu (engine/forward/cpu/), the GPU over kernels/cuda (engine/cuda/). Every float*
// an op takes or returns is in the backend's memory (host for the CPU, device for CUDA).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "engine/forward/batch_input.h"
#include "engine/kv/kv_cache_storage.h"
#include "kernels/rope_frequencies.h"
#include "kernels/tensor.h"

namespace infergate {

// A projection as the backend multiplies it (packed panels on the CPU, a device matrix on the
// GPU), prepared once from row-major tensors.
class OpWeight {
 public:
  virtual ~OpWeight() = default;
  virtual int64_t rows() const = 0;  // output features
  virtual int64_t cols() const = 0;  // input features
  virtual size_t nbytes() const = 0;
};

// One SwiGLU FFN (dense, an expert, or a shared expert): down(silu(gate) * up).
struct OpFfn {
  std::unique_ptr<OpWeight> gate_up;  // [gate | up] rows
  std::unique_ptr<OpWeight> down;
  bool defined() const { return down != nullptr; }
  size_t nbytes() const { return defined() ? gate_up->nbytes() + down->nbytes() : 0; }
};

// A mixture-of-experts layer: the router and the experts this rank holds.
struct OpMoe {
  std::unique_ptr<OpWeight> router;  // [num_experts, hidden]
  std::vector<OpFfn> experts;
  OpFfn shared_expert;
};

// The activation buffers of a step, each grown by the backend (an address may change when its
// buffer grows, so it is asked again each step).
enum class Activation { kX, kH, kQkv, kQ, kK, kV, kAttn, kTmp, kRows, kCount };

class ForwardOps {
 public:
  virtual ~ForwardOps() = default;

  // ---- weights, prepared once
  // The rows of `fused` stacked into one projection (q|k|v, gate|up), each [rows_i, k].
  virtual std::unique_ptr<OpWeight> prepare_linear(const std::vector<const Tensor*>& fused) = 0;
  // A MoE router [num_experts, hidden], multiplied in full precision (routing is a top-k over
  // its logits, where a rounding can change the experts chosen).
  virtual std::unique_ptr<OpWeight> prepare_router(const Tensor& router) = 0;
  // A row-major f32 vector the ops read (a norm's weight, a bias), kept for the ops' lifetime;
  // null for an undefined tensor.
  virtual const float* vector(const Tensor& t) = 0;

  // ---- memory
  virtual float* activation(Activation a, size_t floats) = 0;
  // Every scratch byte the ops hold (the memory ledger's "workspace").
  virtual size_t workspace_bytes() const = 0;

  // ---- a step
  // The step's inputs and, for a backend that keeps it on the host, the KV cache its layers
  // write (a device backend owns its cache and is given null).
  virtual void begin_step(const BatchInput& batch, KvCacheStorage* cache) = 0;
  // Rows of `table` for the step's tokens.
  virtual void embed(const Tensor& table, float* out) = 0;
  // The same from a tensor-parallel part of the vocabulary that starts at row_start: a token
  // outside the part gives a zero row (the group's all-reduce adds the parts).
  virtual void embed_part(const Tensor& table, int64_t row_start, float* out) = 0;
  virtual void rms_norm(const float* x, const float* weight, int64_t rows, int64_t dim, float eps,
                        float* out) = 0;
  // x += delta (the residual add).
  virtual void add(float* x, const float* delta, int64_t count) = 0;
  // The residual add and the next pre-norm in one: x += delta, then delta = rms_norm(x) (a
  // backend may fuse them into one pass, as vLLM's fused_add_rms_norm).
  virtual void add_rms_norm(float* x, float* delta, const float* weight, int64_t rows, int64_t dim,
                            float eps) = 0;
  virtual void linear(const float* x, int64_t rows, const OpWeight& w, float* y) = 0;
  // Splits [q | k | v] rows, adding the biases that are not null.
  virtual void split_qkv(const float* qkv, int64_t rows, int64_t q_width, int64_t kv_width,
                         const float* bq, const float* bk, const float* bv, float* q, float* k,
                         float* v) = 0;
  // NeoX-style rotation of each head at the step's positions.
  virtual void rope(float* x, int64_t rows, int num_heads, int head_dim,
                    const RopeFrequencies& rope) = 0;
  // The step's K/V rows into layer `layer` of the cache, at the step's slots.
  virtual void write_kv(int layer, const float* k, const float* v, int64_t rows) = 0;
  // Paged attention of the step's sequences over layer `layer` of the cache.
  virtual void attention(int layer, const float* q, int num_heads, float scale, int sliding_window,
                         float* out) = 0;
  virtual void ffn(const OpFfn& ffn, const float* x, int64_t rows, float* out) = 0;
  // out = the MoE layer over `rows` rows of x (routing, the experts, the shared expert). With
  // expert parallelism the rows are exchanged with the group's ranks, and out is whole.
  virtual void moe_ffn(const OpMoe& moe, const float* x, int64_t rows, float* out) = 0;
  // out = rows `batch.logits_rows` of x [*, width].
  virtual void gather_logits_rows(const float* x, int64_t width, float* out) = 0;

  // ---- the tensor-parallel group's collectives (never called without one)
  virtual void all_reduce(float* x, size_t count) = 0;
  virtual void all_gather(const float* local, size_t count, float* out) = 0;
};

}  // namespace infergate
