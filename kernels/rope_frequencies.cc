#include "kernels/rope_frequencies.h"

#include <cmath>

namespace infergate {

RopeFrequencies RopeFrequencies::plain(int head_dim, double theta) {
  RopeFrequencies f;
  for (int i = 0; i < head_dim / 2; ++i) {
    f.inv_freq.push_back(float(std::pow(theta, -2.0 * i / double(head_dim))));
  }
  return f;
}

}  // namespace infergate
