// `mpirun -np N infergate bench-comm` end to end: the table, the results file read back (the
// summary through the gates' own metric keys), and clear errors for bad options.
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <string>

#include "common/io/json_file.h"
#include "common/results/metric_key.h"
#include "tests/dist/jobs/job.h"

namespace infergate {

using Catch::Matchers::Contains;

namespace {

std::string out_path(const std::string& name) {
  const std::filesystem::path dir = std::filesystem::path(INFERGATE_TEST_OUT_DIR) / "bench_comm";
  std::filesystem::create_directories(dir);
  std::filesystem::remove(dir / name);
  return (dir / name).string();
}

}  // namespace

TEST_CASE("bench-comm on 2 ranks prints the table and writes checked results the gates can read") {
  const std::string json = out_path("two_ranks.json");
  const test::JobResult job = test::run_mpi_job(
      2, std::string(INFERGATE_BINARY) +
             " bench-comm --min-bytes 8 --max-bytes 64K --iters 3 --warmup 1 --json " + json);
  INFO(job.output);
  REQUIRE(job.exit_status == 0);
  CHECK_THAT(job.output, Contains("backend mpi, 2 ranks, f32") && Contains("# all_reduce") &&
                             Contains("busbw") && Contains("#wrong") &&
                             Contains("wrong elements: 0"));

  const nlohmann::json doc = read_json_file(json);
  CHECK(doc.at("schema") == "infergate.comm/v1");
  CHECK(doc.at("config").at("world_size") == 2);
  CHECK(doc.at("manifest").contains("git"));
  const std::map<std::string, double> bus_factor = {{"all_reduce", 1.0},     {"all_gather", 0.5},
                                                    {"reduce_scatter", 0.5}, {"all_to_all", 0.5},
                                                    {"send_recv", 1.0},      {"broadcast", 1.0}};
  REQUIRE(doc.at("collectives").size() == bus_factor.size());
  for (const nlohmann::json& c : doc.at("collectives")) {
    const std::string op = c.at("op");
    INFO(op);
    CHECK(c.at("bus_factor").get<double>() == bus_factor.at(op));
    REQUIRE(!c.at("rows").empty());
    CHECK(c.at("rows").back().at("bytes") == 65536);
    for (const nlohmann::json& row : c.at("rows")) {
      CHECK(row.at("wrong") == 0);
      CHECK(row.at("busbw_gbps").get<double>() ==
            Approx(row.at("algbw_gbps").get<double>() * bus_factor.at(op)));
      CHECK(row.at("algbw_gbps").get<double>() ==
            Approx(row.at("bytes").get<double>() / row.at("time_us").get<double>() / 1e3));
    }
    // What a gate rule would name: summary.<op>_peak_busbw_gbps.
    const auto peak =
        metric_value(doc.at("summary"), parse_metric_key("summary." + op + "_peak_busbw_gbps"));
    REQUIRE(peak.has_value());
    CHECK(*peak > 0);
  }
  CHECK(metric_value(doc.at("summary"), parse_metric_key("summary.num_wrong")) == 0.0);
  CHECK(doc.at("rank0_comm_stats").at("all_reduce").at("calls").get<int>() > 0);
}

TEST_CASE("bench-comm on 3 ranks checks bf16 sums exactly and scales busbw by 2(n-1)/n") {
  const std::string json = out_path("three_ranks_bf16.json");
  const test::JobResult job = test::run_mpi_job(
      3, std::string(INFERGATE_BINARY) +
             " bench-comm --dtype bfloat16 --ops all_reduce,reduce_scatter --min-bytes 6"
             " --max-bytes 6K --step-factor 4 --iters 2 --warmup 0 --json " +
             json);
  INFO(job.output);
  REQUIRE(job.exit_status == 0);
  const nlohmann::json doc = read_json_file(json);
  CHECK(doc.at("config").at("dtype") == "bf16");
  REQUIRE(doc.at("collectives").size() == 2);
  CHECK(doc.at("collectives")[0].at("bus_factor").get<double>() == Approx(4.0 / 3));
  // reduce_scatter sizes are whole multiples of 3 ranks x 2 bytes.
  for (const nlohmann::json& row : doc.at("collectives")[1].at("rows")) {
    CHECK(row.at("bytes").get<int>() % 6 == 0);
  }
  CHECK(doc.at("summary").at("num_wrong") == 0);
}

TEST_CASE("bench-comm names the bad option and the allowed values") {
  const std::string bench = std::string(INFERGATE_BINARY) + " bench-comm ";
  const test::JobResult bogus = test::run_mpi_job(1, bench + "--ops all_reduce,bogus");
  CHECK(bogus.exit_status != 0);
  CHECK_THAT(bogus.output, Contains("--ops: unknown collective 'bogus' (allowed: all_reduce,"));
  const test::JobResult barrier = test::run_mpi_job(1, bench + "--ops barrier");
  CHECK_THAT(barrier.output, Contains("bench-comm does not measure barrier (allowed: all_reduce, "
                                      "all_gather, reduce_scatter, all_to_all, send_recv, "
                                      "broadcast)"));
  const test::JobResult size = test::run_mpi_job(1, bench + "--max-bytes 12Q");
  CHECK_THAT(size.output, Contains("--max-bytes: '12Q' is not a byte count"));
  const test::JobResult dtype = test::run_mpi_job(1, bench + "--dtype q8_0");
  CHECK_THAT(dtype.output, Contains("--dtype: unknown element type 'q8_0' (allowed: f32|float"));
}

}  // namespace infergate
