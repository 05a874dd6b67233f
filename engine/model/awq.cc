#include "engine/model/awq.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>
#include <string>

#include "engine/model/channel_scaling.h"
#include "kernels/cpu/convert.h"
#include "kernels/cpu/int4_group.h"
#include "kernels/cpu/linear.h"

namespace infergate {

namespace {

constexpr int kGridSteps = 20;     // alpha = 0, 0.05, .., 0.95, as llm-awq's n_grid
constexpr double kMinMean = 1e-4;  // llm-awq clamps mean |x| here so no scale is 0

std::vector<double> scales_for(const std::vector<double>& mean_abs, double alpha) {
  std::vector<double> s(mean_abs.size());
  for (size_t j = 0; j < s.size(); ++j) s[j] = std::pow(std::max(mean_abs[j], kMinMean), alpha);
  const auto [lo, hi] = std::minmax_element(s.begin(), s.end());
  const double norm = std::sqrt(*lo * *hi);
  for (double& v : s) v /= norm;
  return s;
}

// Squared output error on the calibration rows, split: even rows choose alpha, odd rows check it.
struct Loss {
  double fit = 0, check = 0;
};

// What a site computes from its rows, [rows, outputs]: given the site's matrices in order.
using SiteOutput =
    std::function<std::vector<float>(const std::vector<Tensor>& matrices, const SiteSamples& x)>;

// Q(W s) / s: the matrix the INT4 model computes with once the scales fold back.
Tensor scaled_int4(const Tensor& w, const std::vector<double>& s, int64_t group, ThreadPool& pool) {
  const int64_t rows = w.dim(0), k = w.dim(1), g = int4_group_for(k, group);
  Tensor out = Tensor::zeros(DType::kF32, w.shape());
  const float* src = w.data<float>();
  float* dst = out.mutable_data<float>();
  pool.parallel_for(rows, [&](int64_t begin, int64_t end) {
    std::vector<float> q(static_cast<size_t>(k));
    for (int64_t r = begin; r < end; ++r) {
      for (int64_t j = 0; j < k; ++j) q[size_t(j)] = float(src[r * k + j] * s[size_t(j)]);
      fake_quantize_int4(q.data(), k, g);
      for (int64_t j = 0; j < k; ++j) dst[r * k + j] = float(q[size_t(j)] / s[size_t(j)]);
    }
  });
  return out;
}

std::vector<float> matmul(const float* x, int64_t n, const Tensor& w, ThreadPool& pool) {
  std::vector<float> y(static_cast<size_t>(n * w.dim(0)));
  linear(x, n, w, y.data(), pool);
  return y;
}

// The matrices' outputs side by side (q/k/v; an MoE's gate/up of every expert; down).
SiteOutput linear_outputs(ThreadPool& pool) {
  return [&pool](const std::vector<Tensor>& matrices, const SiteSamples& x) {
    const int64_t n = x.num_rows();
    int64_t width = 0;
    for (const Tensor& w : matrices) width += w.dim(0);
    std::vector<float> all(static_cast<size_t>(n * width));
    int64_t column = 0;
    for (const Tensor& w : matrices) {
      const std::vector<float> y = matmul(x.rows.data(), n, w, pool);
      const int64_t rows = w.dim(0);
      for (int64_t t = 0; t < n; ++t) {
        std::copy_n(y.begin() + t * rows, rows, all.begin() + t * width + column);
      }
      column += rows;
    }
    return all;
  };
}

// A dense FFN's output down(silu(gate x) * up x) with down kept exact, as llm-awq inspects the
// whole MLP for gate/up: an error in gate passes through silu, one in up does not.
SiteOutput swiglu_output(const Tensor& down, ThreadPool& pool) {
  return [&down, &pool](const std::vector<Tensor>& gate_up, const SiteSamples& x) {
    const int64_t n = x.num_rows();
    std::vector<float> g = matmul(x.rows.data(), n, gate_up[0], pool);
    const std::vector<float> u = matmul(x.rows.data(), n, gate_up[1], pool);
    for (size_t i = 0; i < g.size(); ++i) g[i] = g[i] / (1.0f + std::exp(-g[i])) * u[i];
    return matmul(g.data(), n, down, pool);
  };
}

// Outputs are [n, width]: row t goes to the fit half when t is even.
Loss output_loss(const std::vector<float>& ref, const std::vector<float>& got, int64_t n) {
  Loss loss;
  const size_t per_row = ref.size() / size_t(n);
  for (size_t i = 0; i < ref.size(); ++i) {
    const double d = double(ref[i]) - got[i];
    ((i / per_row) % 2 == 0 ? loss.fit : loss.check) += d * d;
  }
  return loss;
}

// Searches alpha for one site; returns the chosen scales and fills `choice`.
std::vector<double> search_site(const std::vector<const Tensor*>& searched, const SiteSamples& x,
                                const SiteOutput& output, int64_t group, ThreadPool& pool,
                                AwqSiteChoice& choice) {
  std::vector<Tensor> f32;
  for (const Tensor* t : searched) f32.push_back(convert_tensor(*t, DType::kF32));
  const std::vector<float> ref = output(f32, x);
  std::vector<double> best;
  Loss plain, chosen;
  for (int i = 0; i < kGridSteps; ++i) {
    const double alpha = double(i) / kGridSteps;
    std::vector<double> s = scales_for(x.mean_abs, alpha);
    std::vector<Tensor> quantized;
    for (const Tensor& w : f32) quantized.push_back(scaled_int4(w, s, group, pool));
    const Loss loss = output_loss(ref, output(quantized, x), x.num_rows());
    if (i == 0) plain = loss;
    if (i == 0 || loss.fit < chosen.fit) {
      choice.alpha = alpha;
      chosen = loss;
      best = std::move(s);
    }
  }
  // Scales that do not also help the rows they were not chosen on are noise: keep plain INT4.
  if (chosen.check >= plain.check) {
    choice.alpha = 0;
    chosen = plain;
    best.assign(best.size(), 1.0);
  }
  choice.plain_loss = plain.fit + plain.check;
  choice.chosen_loss = chosen.fit + chosen.check;
  return best;
}

void check_samples(const std::vector<SiteSamples>& samples, size_t layers, const char* site,
                   bool optional, const std::vector<int64_t>& channels) {
  if (samples.size() != layers) {
    throw std::invalid_argument(std::string("awq_search: ") + site + " samples for " +
                                std::to_string(samples.size()) + " layers, model has " +
                                std::to_string(layers));
  }
  for (size_t i = 0; i < layers; ++i) {
    const SiteSamples& x = samples[i];
    if (optional && x.channels == 0) continue;
    if (x.channels != channels[i] || int64_t(x.mean_abs.size()) != x.channels || x.num_rows() < 2 ||
        int64_t(x.rows.size()) % x.channels != 0) {
      throw std::invalid_argument(std::string("awq_search: layer ") + std::to_string(i) + " " +
                                  site + " samples must have " + std::to_string(channels[i]) +
                                  " channels and at least two rows");
    }
  }
}

std::vector<const Tensor*> quantized_consumers(LayerWeights& l, NormSite site) {
  std::vector<const Tensor*> out;
  for (Tensor* t : norm_consumers(l, site)) {
    if (t != &l.router) out.push_back(t);  // the router stays fp32
  }
  return out;
}

}  // namespace

std::vector<AwqSiteChoice> awq_search(ModelWeights& w, const ActivationSamples& samples,
                                      int64_t group) {
  if (group <= 0 || group % kQuantBlock != 0) {
    throw std::invalid_argument("awq_search: group " + std::to_string(group) +
                                " is not a positive multiple of 32");
  }
  const size_t layers = w.layers.size();
  const std::vector<int64_t> hidden(layers, w.config.hidden_size);
  std::vector<int64_t> intermediate(layers, 0);
  for (size_t i = 0; i < layers; ++i) {
    if (w.layers[i].ffn.down.defined()) intermediate[i] = w.layers[i].ffn.down.dim(1);
  }
  check_samples(samples.attention, layers, "attention", false, hidden);
  check_samples(samples.ffn, layers, "ffn", false, hidden);
  check_samples(samples.down, layers, "down", true, intermediate);
  ThreadPool pool;
  std::vector<AwqSiteChoice> choices;
  for (size_t i = 0; i < layers; ++i) {
    LayerWeights& l = w.layers[i];
    const Tensor down_f32 =
        l.ffn.down.defined() ? convert_tensor(l.ffn.down, DType::kF32) : Tensor();
    for (NormSite site : {NormSite::kAttention, NormSite::kFfn}) {
      const bool attention = site == NormSite::kAttention;
      AwqSiteChoice c{int(i), attention ? "qkv" : "gate_up"};
      const SiteSamples& x = attention ? samples.attention[i] : samples.ffn[i];
      const std::vector<const Tensor*> searched = quantized_consumers(l, site);
      const bool dense_ffn = !attention && searched.size() == 2 && l.ffn.down.defined();
      const SiteOutput output = dense_ffn ? swiglu_output(down_f32, pool) : linear_outputs(pool);
      scale_norm_site(l, site, search_site(searched, x, output, group, pool, c));
      choices.push_back(c);
    }
    if (samples.down[i].channels > 0 && l.ffn.down.defined()) {
      AwqSiteChoice c{int(i), "down"};
      scale_ffn_hidden(
          l.ffn, search_site({&l.ffn.down}, samples.down[i], linear_outputs(pool), group, pool, c));
      choices.push_back(c);
    }
  }
  return choices;
}

}  // namespace infergate
