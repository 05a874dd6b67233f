// Prometheus's text exposition format (version 0.0.4, what every LLM server's GET /metrics
// answers) read into samples: `name{label="value",...} value [timestamp]` lines, `#` comments
// skipped. Bounded: the body, each line, the number of samples and of labels per sample have
// limits, so a hostile or broken server costs a clear error, never unbounded memory.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

struct PrometheusLabel {
  std::string name, value;  // value unescaped (\\, \", \n)
};

struct PrometheusSample {
  std::string name;
  std::vector<PrometheusLabel> labels;  // in the exposition's order
  double value = 0;                     // +Inf, -Inf and NaN as such

  // The label's value, or nullptr.
  const std::string* label(std::string_view label_name) const;
  // `name{a="x",b="y"}` (labels in order, values escaped again), or `name` without labels.
  std::string key() const;
};

struct PrometheusLimits {
  size_t max_body_bytes = 16u << 20;  // a big vLLM exposition is a few hundred KiB
  size_t max_line_bytes = 64u << 10;
  size_t max_samples = 200'000;
  size_t max_labels = 64;  // per sample
};

// A body that is not Prometheus text, or exceeds a limit: "SOURCE:LINE: what is wrong".
class PrometheusTextError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Every sample of `text`; `source` (e.g. the URL) names it in errors.
std::vector<PrometheusSample> parse_prometheus_text(std::string_view text,
                                                    const std::string& source,
                                                    const PrometheusLimits& limits = {});

// A sample value or an `le` bound: a decimal float, +Inf, -Inf or NaN; nullopt otherwise.
std::optional<double> parse_prometheus_number(std::string_view text);

// key() -> value, for looking series up by name and labels (the last of duplicates wins).
std::map<std::string, double> prometheus_value_map(const std::vector<PrometheusSample>& samples);

}  // namespace infergate
