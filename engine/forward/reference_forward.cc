#include "engine/forward/reference_forward.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

#include "engine/model/rope_scaling.h"
#include "kernels/cpu/convert.h"

namespace infergate {

namespace {

using Vec = std::vector<double>;

Vec row_of(const Tensor& t, int64_t row) {
  const int64_t cols = t.shape().size() == 2 ? t.dim(1) : t.numel();
  std::vector<float> f(static_cast<size_t>(cols));
  to_f32(t, row * cols, cols, f.data());
  return Vec(f.begin(), f.end());
}

// y = W x (+ b): W [out, in].
Vec matvec(const Tensor& w, const Vec& x, const Tensor& bias = Tensor()) {
  const int64_t out = w.dim(0);
  Vec y(static_cast<size_t>(out));
  for (int64_t r = 0; r < out; ++r) {
    const Vec wr = row_of(w, r);
    y[size_t(r)] = std::inner_product(wr.begin(), wr.end(), x.begin(), 0.0);
  }
  if (bias.defined()) {
    const Vec b = row_of(bias, 0);
    for (size_t i = 0; i < y.size(); ++i) y[i] += b[i];
  }
  return y;
}

Vec rms_norm(const Vec& x, const Tensor& weight, double eps) {
  double ss = 0;
  for (double v : x) ss += v * v;
  const double inv = 1.0 / std::sqrt(ss / double(x.size()) + eps);
  const Vec w = row_of(weight, 0);
  Vec y(x.size());
  for (size_t i = 0; i < x.size(); ++i) y[i] = x[i] * inv * w[i];
  return y;
}

// Qwen3's q/k norm: each head_dim slice normalized on its own.
Vec per_head_rms_norm(const Vec& x, int head_dim, const Tensor& weight, double eps) {
  Vec out;
  for (size_t h = 0; h < x.size(); h += size_t(head_dim)) {
    const Vec head(x.begin() + ptrdiff_t(h), x.begin() + ptrdiff_t(h) + head_dim);
    const Vec y = rms_norm(head, weight, eps);
    out.insert(out.end(), y.begin(), y.end());
  }
  return out;
}

void rope(Vec& x, int num_heads, int head_dim, int64_t pos, const RopeFrequencies& f) {
  const int half = head_dim / 2;
  for (int h = 0; h < num_heads; ++h) {
    double* v = x.data() + size_t(h) * size_t(head_dim);
    for (int i = 0; i < half; ++i) {
      const double angle = double(pos) * double(f.inv_freq[size_t(i)]);
      const double c = std::cos(angle) * f.scale, s = std::sin(angle) * f.scale;
      const double a = v[i], b = v[i + half];
      v[i] = a * c - b * s;
      v[i + half] = b * c + a * s;
    }
  }
}

// `on_hidden` (if set) sees silu(gate x) * (up x), down's input.
Vec swiglu(const FfnWeights& f, const Vec& x,
           const std::function<void(const Vec&)>& on_hidden = {}) {
  Vec g = matvec(f.gate, x);
  const Vec u = matvec(f.up, x);
  for (size_t i = 0; i < g.size(); ++i) g[i] = g[i] / (1.0 + std::exp(-g[i])) * u[i];
  if (on_hidden) on_hidden(g);
  return matvec(f.down, g);
}

Vec moe(const LayerWeights& l, const MoeConfig& m, const Vec& x) {
  Vec logits = matvec(l.router, x);
  const std::vector<int> chosen = top_k_experts(logits, m.top_k);
  const double mx = *std::max_element(logits.begin(), logits.end());
  double total = 0;
  for (double v : logits) total += std::exp(v - mx);
  Vec gate(chosen.size());
  double chosen_sum = 0;
  for (size_t i = 0; i < chosen.size(); ++i) {
    gate[i] = std::exp(logits[size_t(chosen[i])] - mx) / total;
    chosen_sum += gate[i];
  }
  Vec y(x.size(), 0.0);
  for (size_t i = 0; i < chosen.size(); ++i) {
    const double g = m.normalize_top_k ? gate[i] / chosen_sum : gate[i];
    const Vec e = swiglu(l.experts[size_t(chosen[i])], x);
    for (size_t j = 0; j < y.size(); ++j) y[j] += g * e[j];
  }
  if (l.shared_expert.gate.defined()) {
    const Vec s = swiglu(l.shared_expert, x);
    for (size_t j = 0; j < y.size(); ++j) y[j] += s[j];
  }
  return y;
}

}  // namespace

std::vector<int> top_k_experts(const std::vector<double>& router_logits, int k) {
  std::vector<int> idx(router_logits.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](int a, int b) {
    return router_logits[size_t(a)] > router_logits[size_t(b)];
  });
  idx.resize(size_t(k));
  return idx;
}

std::vector<float> reference_forward(const ModelWeights& w, const std::vector<int32_t>& tokens) {
  return reference_forward(w, tokens, ActivationObserver());
}

std::vector<float> reference_forward(const ModelWeights& w, const std::vector<int32_t>& tokens,
                                     const ActivationObserver& observe) {
  const ModelConfig& c = w.config;
  const int64_t n = int64_t(tokens.size());
  const int hd = c.head_dim, group = c.num_heads / c.num_kv_heads;
  const RopeFrequencies freq = rope_frequencies(c);
  std::vector<Vec> x;
  for (int32_t t : tokens) {
    if (t < 0 || t >= c.vocab_size) throw std::out_of_range("token id outside vocabulary");
    x.push_back(row_of(w.embed, t));
  }
  for (size_t layer = 0; layer < w.layers.size(); ++layer) {
    const LayerWeights& l = w.layers[layer];
    std::vector<Vec> q(static_cast<size_t>(n)), k(q), v(q);
    for (int64_t t = 0; t < n; ++t) {
      const Vec h = rms_norm(x[size_t(t)], l.attn_norm, c.rms_norm_eps);
      if (observe) observe(int(layer), ActivationSite::kAttentionInput, h);
      q[size_t(t)] = matvec(l.wq, h, l.bq);
      k[size_t(t)] = matvec(l.wk, h, l.bk);
      v[size_t(t)] = matvec(l.wv, h, l.bv);
      if (l.q_norm.defined()) {
        q[size_t(t)] = per_head_rms_norm(q[size_t(t)], hd, l.q_norm, c.rms_norm_eps);
        k[size_t(t)] = per_head_rms_norm(k[size_t(t)], hd, l.k_norm, c.rms_norm_eps);
      }
      rope(q[size_t(t)], c.num_heads, hd, t, freq);
      rope(k[size_t(t)], c.num_kv_heads, hd, t, freq);
    }
    for (int64_t t = 0; t < n; ++t) {
      Vec attn(size_t(c.q_size()), 0.0);
      for (int h = 0; h < c.num_heads; ++h) {
        const size_t qo = size_t(h) * size_t(hd), ko = size_t(h / group) * size_t(hd);
        // A sliding window sees (t - window, t]; the positions before it weigh exactly 0.
        const int64_t first =
            c.sliding_window > 0 ? std::max<int64_t>(0, t - c.sliding_window + 1) : 0;
        Vec s(static_cast<size_t>(t + 1), -INFINITY);
        for (int64_t p = first; p <= t; ++p) {
          double dot = 0;
          for (int i = 0; i < hd; ++i)
            dot += q[size_t(t)][qo + size_t(i)] * k[size_t(p)][ko + size_t(i)];
          s[size_t(p)] = dot / std::sqrt(double(hd));
        }
        const double mx = *std::max_element(s.begin(), s.end());
        double sum = 0;
        for (double& e : s) sum += (e = std::exp(e - mx));
        for (int64_t p = 0; p <= t; ++p) {
          for (int i = 0; i < hd; ++i)
            attn[qo + size_t(i)] += s[size_t(p)] / sum * v[size_t(p)][ko + size_t(i)];
        }
      }
      const Vec o = matvec(l.wo, attn);
      for (size_t i = 0; i < o.size(); ++i) x[size_t(t)][i] += o[i];
      const Vec h = rms_norm(x[size_t(t)], l.ffn_norm, c.rms_norm_eps);
      if (observe) observe(int(layer), ActivationSite::kFfnInput, h);
      const auto on_hidden = [&](const Vec& a) {
        if (observe) observe(int(layer), ActivationSite::kDownInput, a);
      };
      const Vec f = c.is_moe() ? moe(l, c.moe, h) : swiglu(l.ffn, h, on_hidden);
      for (size_t i = 0; i < f.size(); ++i) x[size_t(t)][i] += f[i];
    }
  }
  std::vector<float> logits(size_t(n) * size_t(c.vocab_size));
  for (int64_t t = 0; t < n; ++t) {
    const Vec h = rms_norm(x[size_t(t)], w.final_norm, c.rms_norm_eps);
    const Vec out = matvec(w.output_weight(), h);
    std::copy(out.begin(), out.end(), logits.begin() + t * c.vocab_size);
  }
  return logits;
}

}  // namespace infergate
