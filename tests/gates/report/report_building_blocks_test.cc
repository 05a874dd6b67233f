// The small pieces every report shares: number formats, escaping, shell quoting, axis ticks,
// the empirical CDF and the series taken from results files.
#include <catch2/catch.hpp>
#include <limits>

#include "common/report/axis_ticks.h"
#include "common/report/markup_escape.h"
#include "common/report/metric_format.h"
#include "common/report/svg_chart.h"
#include "common/util/shell_quote.h"
#include "gates/report/report_series.h"
#include "gates/report/reproduce_command.h"
#include "tests/gates/report_fixtures.h"

using namespace infergate;
using namespace infergate::report_test;
using Catch::Matchers::Contains;

TEST_CASE("metric values print in the unit their key names", "[report]") {
  CHECK(format_metric_value(30.2712, parse_metric_key("summary.tpot_ms.p95")) == "30.27 ms");
  CHECK(format_metric_value(426061824, parse_metric_key("summary.peak_memory_bytes")) ==
        "406.3 MiB");
  CHECK(format_metric_value(7.637, parse_metric_key("summary.request_throughput_rps")) ==
        "7.637 req/s");
  CHECK(format_metric_value(261.57, parse_metric_key("summary.output_throughput_tps")) ==
        "261.6 tok/s");
  CHECK(format_metric_value(49.2, parse_metric_key("summary.utilization_pct")) == "49.2%");
  CHECK(format_metric_value(40, parse_metric_key("summary.ttft_ms.count")) == "40");
  CHECK(format_metric_value(123456.7, parse_metric_key("summary.e2e_ms.max")) == "123457 ms");
  CHECK(format_metric_value(std::numeric_limits<double>::quiet_NaN(),
                            parse_metric_key("summary.e2e_ms.max")) == "n/a");
}

TEST_CASE("changes are signed percentages and small p-values are bounded", "[report]") {
  CHECK(format_change(0.0493) == "+4.93%");
  CHECK(format_change(-0.2) == "-20.0%");
  CHECK(format_change(std::numeric_limits<double>::infinity()) == "n/a");
  CHECK(format_interval(-0.01, 0.03) == "[-1.00%, +3.00%]");
  CHECK(format_p_value(0.0312) == "0.031");
  CHECK(format_p_value(0.0001) == "<0.001");
}

TEST_CASE("markup escaping covers text and attribute values", "[report]") {
  CHECK(escape_markup("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &#39;d&#39;&gt;");
  CHECK(escape_markup("tab\tnew\nline") == "tab\tnew\nline");
  CHECK(escape_markup(std::string("nul\0!", 5)) == "nul\xEF\xBF\xBD!");
  CHECK(escape_markup("ünïcode") == "ünïcode");
}

TEST_CASE("the reproduce command quotes paths for a POSIX shell", "[report]") {
  CHECK(shell_quote("results/base-1.json") == "results/base-1.json");
  CHECK(shell_quote("my run.json") == "'my run.json'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("") == "''");
  Comparison c = sample_comparison();
  c.rules_path.clear();
  CHECK(reproduce_command(c) == "infergate compare results/baseline.json 'out/candidate run.json'");
}

TEST_CASE("axis ticks are nice numbers covering the data", "[report]") {
  const AxisTicks t = nice_ticks(0.3, 9.7);
  CHECK(t.lo == 0);
  CHECK(t.hi == 10);
  CHECK(t.step == 2);
  CHECK(t.values == std::vector<double>{0, 2, 4, 6, 8, 10});
  const AxisTicks flat = nice_ticks(5, 5);
  CHECK(flat.lo < 5);
  CHECK(flat.hi > 5);
  CHECK(tick_label(0.2, 0.1) == "0.2");
  CHECK(tick_label(2000, 500) == "2000");
  CHECK(tick_label(2.5e6, 5e5) == "2.5M");
  CHECK(tick_label(4e8, 1e8) == "400M");
}

TEST_CASE("the empirical CDF rises to one and is thinned to the points asked for", "[report]") {
  std::vector<double> samples;
  for (int i = 1000; i >= 1; --i) samples.push_back(i);
  const std::vector<ChartPoint> cdf = empirical_cdf(samples, 100);
  REQUIRE(cdf.size() == 100);
  CHECK(cdf.front().x == 1);
  CHECK(cdf.front().y == 0.001);
  CHECK(cdf.back().x == 1000);
  CHECK(cdf.back().y == 1);
  for (size_t i = 1; i < cdf.size(); ++i) CHECK(cdf[i].x > cdf[i - 1].x);
  CHECK(empirical_cdf({3, 1, 2}).size() == 3);
  CHECK(empirical_cdf({}).empty());
}

TEST_CASE("series come from the fixture's requests, timelines, sweep and engine", "[report]") {
  const ResultsFile sweep = load_fixture("rate-sweep.json");
  REQUIRE(sweep.points.size() == 4);
  CHECK(sweep_point_label(sweep.points[1]) == "load.rate=4.0");
  CHECK(pooled_request_samples(sweep.points[0], "ttft_ms").size() == 24);  // 2 are warm-up
  const std::vector<ChartPoint> curve =
      sweep_curve(sweep, parse_metric_key("summary.request_throughput_rps"),
                  parse_metric_key("summary.ttft_ms.p95"));
  CHECK(curve.size() == 4);
  const std::vector<ChartPoint> rss =
      timeline_series(sweep.points[0].repetitions[0].timeline, &TimelineSample::rss_bytes, 1 << 20);
  REQUIRE_FALSE(rss.empty());
  CHECK(rss.front().x < 1);   // seconds
  CHECK(rss.front().y > 10);  // MiB
  const std::optional<std::vector<double>> steps = mean_step_times(sweep.points[0]);
  REQUIRE(steps);
  CHECK(steps->size() == kStepPhases.size());
  CHECK((*steps)[1] > 0);  // execute
}

TEST_CASE("an SVG chart has labelled axes, a legend and skips non-finite points", "[report]") {
  XyChart chart;
  chart.kind = "test";
  chart.title = "T & U";
  chart.x.label = "x (ms)";
  chart.y.label = "y (%)";
  chart.series.push_back({"a <1>", "#000", {{0, 0}, {1, 1}, {std::nan(""), 2}}});
  REQUIRE(has_points(chart));
  const std::string svg = render_xy_chart(chart);
  CHECK_THAT(svg, Contains("data-chart=\"test\""));
  CHECK_THAT(svg, Contains(">T &amp; U</text>"));
  CHECK_THAT(svg, Contains(">x (ms)</text>"));
  CHECK_THAT(svg, Contains(">a &lt;1&gt;</text>"));
  CHECK_THAT(svg, !Contains("nan"));
  CHECK_FALSE(has_points(XyChart{}));
}
