// Equivalent rescaling of a layer's channels, which SmoothQuant and AWQ both rest on: dividing
// input channel j of some matrices' activation by s_j and multiplying column j of each of those
// matrices by s_j leaves every product unchanged. The division folds into whatever produced the
// activation: the RMSNorm weight before q/k/v or the FFN, or, for down_proj's input
// silu(gate x) * (up x), the rows of up. The model stays an ordinary model.
#pragma once

#include <vector>

#include "engine/model/model_weights.h"

namespace infergate {

enum class NormSite { kAttention, kFfn };

// The matrices one norm feeds (q/k/v; or gate/up of the FFN, its shared expert, every expert,
// and the MoE router): their input channels are the norm's outputs.
std::vector<Tensor*> norm_consumers(LayerWeights& l, NormSite site);

// Divides the norm's weight by s and multiplies column j of every consumer by s[j]. Touched
// tensors become owned f32 (loaded ones may be read-only mappings of the model file).
void scale_norm_site(LayerWeights& l, NormSite site, const std::vector<double>& s);

// Divides row j of f.up by s[j] and multiplies column j of f.down by s[j] (SwiGLU: the hidden
// activation is linear in up's output). f.up and f.down become owned f32.
void scale_ffn_hidden(FfnWeights& f, const std::vector<double>& s);

}  // namespace infergate
