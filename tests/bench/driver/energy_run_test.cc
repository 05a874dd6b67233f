// A run's energy (docs/metrics.md, "Energy"): the meter around each repetition, read from a
// fixture of the powercap files whose counter a thread advances while the run goes, and this
// machine's own answer (on a VM: unavailable, and why).
#include <atomic>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <thread>

#include "bench/driver/energy_figures.h"
#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "tests/temp_dir.h"

using namespace infergate;
using nlohmann::json;

namespace {

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path) << text << "\n";
}

Workload echo_workload() {
  return parse_workload(json::parse(R"({
      "schema": "infergate.workload/v1", "name": "energy",
      "target": {"type": "echo", "token_delay_us": 2000}, "record_requests": true,
      "dataset": {"type": "synthetic", "input_tokens": {"dist": "fixed", "value": 8},
                  "output_tokens": {"dist": "fixed", "value": 10}},
      "load": {"mode": "closed", "concurrency": 2, "num_requests": 20, "warmup_requests": 2}})"),
                        "energy.json");
}

json run_with_powercap(const std::string& root) {
  RunOptions o;
  o.out_path = (std::filesystem::temp_directory_path() / "infergate-energy-test.json").string();
  o.quiet = true;
  o.powercap_root = root;
  const RunOutcome outcome = run_workload(echo_workload(), o);
  std::filesystem::remove(o.out_path);
  return outcome.results["points"][0]["repetitions"][0];
}

}  // namespace

TEST_CASE("a run's energy per output token and per request come from the package counters") {
  const testing::TempDir root("infergate-powercap");
  const std::filesystem::path zone = root.path() / "intel-rapl:0";
  std::filesystem::create_directories(zone);
  write_text(zone / "name", "package-0");
  write_text(zone / "max_energy_range_uj", "262143328850");
  write_text(zone / "energy_uj", "1000");
  // The package draws 1 mJ every 2 ms while the run goes (about 0.5 W).
  std::atomic<bool> running{true};
  std::thread draw([&] {
    for (uint64_t uj = 1000; running; uj += 1000) {
      // Renamed into place: the meter never reads a half-written counter (sysfs's never is).
      write_text(zone / "energy_uj.new", std::to_string(uj));
      std::filesystem::rename(zone / "energy_uj.new", zone / "energy_uj");
      std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
  });
  const json rep = run_with_powercap(root.path().string());
  running = false;
  draw.join();

  const json& e = rep["energy"];
  INFO(e.dump());
  REQUIRE(e["cpu_joules"].is_number());
  CHECK(e["cpu_joules"].get<double>() > 0);
  CHECK(e["cpu_zones"] == 1);
  CHECK_FALSE(e.contains("cpu_unavailable"));
  CHECK(e["gpu_joules"].is_null() != !e.contains("gpu_unavailable"));  // a figure or why not
  CHECK(e["requests"] == 22);                                          // warm-up included
  CHECK(e["output_tokens"] == 220);
  CHECK(e["seconds"].get<double>() > 0);
  const double joules = e["cpu_joules"].get<double>() +
                        (e["gpu_joules"].is_number() ? e["gpu_joules"].get<double>() : 0);
  const json& s = rep["summary"];
  CHECK(s["energy_j_per_output_token"].get<double>() == Approx(joules / 220));
  CHECK(s["energy_j_per_request"].get<double>() == Approx(joules / 22));
}

TEST_CASE("this machine's energy is a figure or unavailable with the reason, never made up") {
  const testing::TempDir empty("infergate-no-powercap");
  const json rep = run_with_powercap((empty.path() / "none").string());
  const json& e = rep["energy"];
  INFO(e.dump());
  CHECK(e["cpu_joules"].is_null());
  CHECK_THAT(e["cpu_unavailable"].get<std::string>(),
             Catch::Contains("does not exist: this kernel or VM exposes no powercap interface"));
  if (e["gpu_joules"].is_null()) {  // no GPU here: no figure at all
    CHECK_FALSE(e["gpu_unavailable"].get<std::string>().empty());
    CHECK(rep["summary"]["energy_j_per_output_token"].is_null());
    CHECK(rep["summary"]["energy_j_per_request"].is_null());
  }
  // The real interface, whatever this machine exposes.
  const json real = run_with_powercap("/sys/class/powercap")["energy"];
  INFO(real.dump());
  CHECK(real["cpu_joules"].is_null() == real.contains("cpu_unavailable"));
}

TEST_CASE("a server on another host has no energy of this machine's") {
  TargetSpec t;
  t.type = "openai";
  t.url = "http://10.1.2.3:8000";
  CHECK_THAT(energy_not_the_targets(t),
             Catch::Contains("the server is on another host (10.1.2.3)"));
  t.url = "http://127.0.0.1:8000";
  CHECK(energy_not_the_targets(t).empty());
  t.type = "engine";
  CHECK(energy_not_the_targets(t).empty());
  const EnergyRecord e = energy_unavailable("elsewhere");
  RunSummary s;
  add_energy(s, e);
  CHECK_FALSE(s.energy_j_per_output_token);
}
