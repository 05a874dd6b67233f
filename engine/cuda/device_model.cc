#include "engine/cuda/device_model.h"

#include <string>

#include "engine/core/cuda_limits.h"
#include "engine/model/rope_scaling.h"
#include "kernels/cuda/moe_routing.h"

namespace infergate::cuda {

namespace {

size_t bytes_of(const DeviceBuffer<float>& b) { return b.size() * sizeof(float); }

size_t layer_bytes(const DeviceLayer& l) {
  size_t total = l.qkv.data.bytes() + l.o.data.bytes() + l.ffn.nbytes() + l.router.data.bytes() +
                 l.shared_expert.nbytes();
  for (const DeviceBuffer<float>* b :
       {&l.attn_norm, &l.ffn_norm, &l.bq, &l.bk, &l.bv, &l.q_norm, &l.k_norm}) {
    total += bytes_of(*b);
  }
  for (const DeviceFfn& e : l.experts) total += e.nbytes();
  return total;
}

static_assert(kCudaMaxExperts == kMoeMaxExperts, "the limits table names the router's bound");

DeviceLayer upload_layer(const LayerWeights& l) {
  DeviceLayer d;
  d.attn_norm = upload_f32(l.attn_norm);
  d.ffn_norm = upload_f32(l.ffn_norm);
  d.bq = upload_f32(l.bq);
  d.bk = upload_f32(l.bk);
  d.bv = upload_f32(l.bv);
  d.q_norm = upload_f32(l.q_norm);
  d.k_norm = upload_f32(l.k_norm);
  d.qkv = upload_matrix({&l.wq, &l.wk, &l.wv});
  d.o = upload_matrix({&l.wo});
  d.ffn = upload_ffn(l.ffn);
  d.router = upload_matrix({&l.router});
  for (const FfnWeights& e : l.experts) d.experts.push_back(upload_ffn(e));
  d.shared_expert = upload_ffn(l.shared_expert);
  return d;
}

}  // namespace

size_t DeviceModel::nbytes() const {
  size_t total = bytes_of(embed) + bytes_of(final_norm) + lm_head.data.bytes();
  for (const DeviceLayer& l : layers) total += layer_bytes(l);
  return total;
}

DeviceModel upload_model(const ModelWeights& w) {
  DeviceModel m;
  m.embed = upload_f32(w.embed);
  m.final_norm = upload_f32(w.final_norm);
  for (const LayerWeights& l : w.layers) m.layers.push_back(upload_layer(l));
  m.lm_head = upload_matrix({&w.output_weight()});
  const RopeFrequencies rope = rope_frequencies(w.config);
  m.rope_inv_freq = DeviceBuffer<float>(rope.inv_freq);
  m.rope_scale = rope.scale;
  return m;
}

}  // namespace infergate::cuda
