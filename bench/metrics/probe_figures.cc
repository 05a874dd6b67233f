#include "bench/metrics/probe_figures.h"

#include <algorithm>
#include <cmath>

#include "bench/metrics/summarize.h"

namespace infergate {

std::vector<double> measured_slo_ratios(const std::vector<RequestRecord>& records,
                                        const SloSpec& slo) {
  std::vector<double> ratios;
  for (const RequestRecord& r : records) {
    if (!r.warmup) ratios.push_back(request_slo_ratio(r, slo));
  }
  return ratios;
}

std::optional<double> slo_ratio_at_share(std::vector<double> ratios, double share) {
  if (ratios.empty()) return std::nullopt;
  // The small epsilon keeps 0.95 x 200 at rank 190, not 191, through floating point.
  const size_t rank = size_t(std::ceil(share * double(ratios.size()) - 1e-9));
  const size_t k = std::clamp<size_t>(rank, 1, ratios.size()) - 1;
  std::nth_element(ratios.begin(), ratios.begin() + std::ptrdiff_t(k), ratios.end());
  const double at = ratios[k];
  return std::isfinite(at) ? std::optional<double>(at) : std::nullopt;
}

void add_slo_ratios(ProbeFigures& figures, const std::vector<RequestRecord>& records,
                    const SloSpec& slo) {
  figures.slo_ratios = measured_slo_ratios(records, slo);
  figures.slo_ratio = slo_ratio_at_share(figures.slo_ratios, figures.goodput_share);
}

}  // namespace infergate
