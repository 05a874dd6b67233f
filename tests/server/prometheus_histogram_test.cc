#include "server/prometheus_histogram.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

TEST_CASE("prometheus histogram: cumulative buckets, sum and count in the text format") {
  PrometheusHistogram h({0.1, 0.5, 1});
  for (double v : {0.05, 0.1, 0.3, 2.0}) h.observe(v);
  CHECK(h.render("x_seconds", "model_name=\"m\"") ==
        "x_seconds_bucket{model_name=\"m\",le=\"0.1\"} 2\n"
        "x_seconds_bucket{model_name=\"m\",le=\"0.5\"} 3\n"
        "x_seconds_bucket{model_name=\"m\",le=\"1\"} 3\n"
        "x_seconds_bucket{model_name=\"m\",le=\"+Inf\"} 4\n"
        "x_seconds_sum{model_name=\"m\"} 2.45\n"
        "x_seconds_count{model_name=\"m\"} 4\n");
  CHECK(prometheus_label_value("a\"b\\c\nd") == "a\\\"b\\\\c\\nd");
}

}  // namespace
}  // namespace infergate
