// What a rotary embedding rotates by: one inverse frequency per pair of a head and one factor
// on cos and sin. Every RoPE variant a checkpoint names (plain, linear, NTK, Llama 3's, YaRN,
// llama.cpp's rope_freqs) reduces to this, so the CPU and GPU kernels take only this.
#pragma once

#include <vector>

namespace infergate {

struct RopeFrequencies {
  std::vector<float> inv_freq;  // head_dim / 2 entries: pair i turns by position * inv_freq[i]
  float scale = 1.0f;           // on cos and sin (YaRN's attention factor; 1 otherwise)

  // theta^(-2i/head_dim), computed in double and rounded to float, as the kernels always did.
  static RopeFrequencies plain(int head_dim, double theta);
  bool operator==(const RopeFrequencies&) const = default;
};

}  // namespace infergate
