// The energy meter (bench/telemetry/energy_meter.h, docs/metrics.md "Energy") against fixtures of
// the powercap files: package zones summed and others left out, wrapping counters, each reason
// there is no figure, and this machine's real powercap and NVML giving a figure or a reason.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>

#include "bench/telemetry/energy_meter.h"
#include "bench/telemetry/nvml.h"
#include "bench/telemetry/powercap_energy.h"
#include "tests/temp_dir.h"

using namespace infergate;
using Catch::Matchers::Contains;

namespace {

constexpr uint64_t kRange = 262'143'328'850;  // a real package's max_energy_range_uj

void write_text(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

// One powercap zone directory as the kernel lays it out (values followed by a newline).
void write_zone(const testing::TempDir& root, const std::string& dir, const std::string& name,
                uint64_t energy_uj, uint64_t range_uj = kRange) {
  write_text(root.path() / dir / "name", name + "\n");
  write_text(root.path() / dir / "energy_uj", std::to_string(energy_uj) + "\n");
  write_text(root.path() / dir / "max_energy_range_uj", std::to_string(range_uj) + "\n");
}

void set_energy(const testing::TempDir& root, const std::string& dir, uint64_t energy_uj) {
  write_text(root.path() / dir / "energy_uj", std::to_string(energy_uj) + "\n");
}

// Two packages plus what must be left out: a core subzone, a psys zone, the control type folder
// and an MMIO duplicate of package 0.
void write_two_packages(const testing::TempDir& root) {
  write_text(root.path() / "intel-rapl" / "enabled", "1\n");
  write_zone(root, "intel-rapl:0", "package-0", 1'000'000);
  write_zone(root, "intel-rapl:0/intel-rapl:0:0", "core", 7'000'000);
  write_zone(root, "intel-rapl:0:0", "core", 7'000'000);
  write_zone(root, "intel-rapl:1", "package-1", 5'000'000);
  write_zone(root, "intel-rapl:2", "psys", 9'000'000);
  write_zone(root, "intel-rapl-mmio:0", "package-0", 1'000'000);
}

std::string open_error(const std::string& root) {
  std::string why;
  const std::optional<PowercapEnergy> energy = PowercapEnergy::open(root, &why);
  CHECK_FALSE(energy.has_value());
  return why;
}

}  // namespace

TEST_CASE("powercap joules between two readings sum the package zones only") {
  testing::TempDir root;
  write_two_packages(root);
  std::string why;
  const std::optional<PowercapEnergy> rapl = PowercapEnergy::open(root.path().string(), &why);
  REQUIRE(rapl.has_value());
  CHECK(why.empty());
  REQUIRE(rapl->zones().size() == 2);
  CHECK(rapl->zones()[0].name == "package-0");
  CHECK(rapl->zones()[1].name == "package-1");
  CHECK(rapl->zones()[0].max_energy_range_uj == kRange);

  const auto before = rapl->read_uj(&why);
  REQUIRE(before.has_value());
  CHECK(*before == std::vector<uint64_t>{1'000'000, 5'000'000});
  set_energy(root, "intel-rapl:0", 3'500'000);
  set_energy(root, "intel-rapl:1", 5'250'000);
  set_energy(root, "intel-rapl:0:0", 99'000'000);  // ignored
  set_energy(root, "intel-rapl:2", 99'000'000);    // ignored
  const auto after = rapl->read_uj(&why);
  REQUIRE(after.has_value());
  CHECK(rapl->joules_between(*before, *after) == 2.75);
  CHECK_THROWS_AS(rapl->joules_between(*before, {1}), std::invalid_argument);
}

TEST_CASE("a wrapped counter counts up to its range, through 0, and on") {
  // The range [0, max] holds max + 1 values: from max - 1000 to 500 is 1000 + 1 + 500.
  CHECK(energy_delta_uj(kRange - 1000, 500, kRange) == 1501);
  CHECK(energy_delta_uj(kRange, 0, kRange) == 1);
  CHECK(energy_delta_uj(10, 10, kRange) == 0);
  CHECK(energy_delta_uj(10, 25, kRange) == 15);

  testing::TempDir root;
  write_zone(root, "intel-rapl:0", "package-0", 999'000, 1'000'000);
  std::string why;
  const std::optional<PowercapEnergy> rapl = PowercapEnergy::open(root.path().string(), &why);
  REQUIRE(rapl.has_value());
  const auto before = rapl->read_uj(&why);
  set_energy(root, "intel-rapl:0", 1'999);
  const auto after = rapl->read_uj(&why);
  REQUIRE((before && after));
  CHECK(rapl->joules_between(*before, *after) == Approx(0.003).epsilon(1e-12));
}

TEST_CASE("a missing powercap root is named as the reason") {
  testing::TempDir dir;
  const std::string root = dir.file("no-powercap");
  const std::string why = open_error(root);
  CHECK_THAT(why, Contains(root + " does not exist"));
  CHECK_THAT(why, Contains("no powercap interface"));
}

TEST_CASE("a powercap root without a RAPL package zone says so") {
  testing::TempDir root;
  write_text(root.path() / "intel-rapl" / "enabled", "1\n");
  write_zone(root, "intel-rapl:0:0", "core", 1);  // a subzone alone is no package
  write_zone(root, "intel-rapl:1", "psys", 1);
  write_zone(root, "dtpm:0", "package-0", 1);
  const std::string why = open_error(root.path().string());
  CHECK(why == "no RAPL package zone under " + root.path().string() +
                   " (virtual machines usually hide it)");
}

TEST_CASE("malformed powercap files are named with what they hold") {
  testing::TempDir root;
  write_zone(root, "intel-rapl:0", "package-0", 1);
  const std::string energy = root.file("intel-rapl:0/energy_uj");
  const std::string range = root.file("intel-rapl:0/max_energy_range_uj");

  write_text(energy, "12abc\n");
  CHECK(open_error(root.path().string()) ==
        energy + ": expected a whole number of microjoules, found \"12abc\"");
  write_text(energy, "-5\n");
  CHECK_THAT(open_error(root.path().string()), Contains("found \"-5\""));
  write_text(energy, "");
  CHECK_THAT(open_error(root.path().string()), Contains(energy + ": expected a whole number"));
  write_text(energy, std::string(100, '7'));
  CHECK(open_error(root.path().string()) ==
        energy + ": longer than 64 bytes, not a powercap attribute");
  write_text(energy, std::to_string(kRange + 1) + "\n");
  CHECK(open_error(root.path().string()) == energy + ": " + std::to_string(kRange + 1) +
                                                " exceeds max_energy_range_uj " +
                                                std::to_string(kRange));

  write_text(energy, "1\n");
  write_text(range, "0\n");
  CHECK(open_error(root.path().string()) == range + ": holds 0, expected a positive counter range");
  std::filesystem::remove(range);
  CHECK_THAT(open_error(root.path().string()), Contains(range + ": No such file or directory"));
}

TEST_CASE("more powercap zones than the bound are refused") {
  testing::TempDir root;
  for (int i = 0; i <= PowercapEnergy::kMaxZones; ++i) {
    write_zone(root, "intel-rapl:" + std::to_string(i), "package-" + std::to_string(i), 1);
  }
  CHECK_THAT(open_error(root.path().string()), Contains("more than 64 RAPL zones"));
}

// The reason open() gives, found as the user `nobody` when this runs as root (root reads a
// chmod 000 file): a child process drops to it and hands the text back through a pipe.
std::string open_error_unprivileged(const std::string& root) {
  if (geteuid() != 0) return open_error(root);
  int fds[2];
  REQUIRE(pipe(fds) == 0);
  const pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    close(fds[0]);
    if (setresgid(65534, 65534, 65534) != 0 || setresuid(65534, 65534, 65534) != 0) _exit(3);
    std::string why;
    PowercapEnergy::open(root, &why);
    const ssize_t written = write(fds[1], why.data(), why.size());
    _exit(written == ssize_t(why.size()) ? 0 : 4);
  }
  close(fds[1]);
  std::string why;
  char buffer[512];
  for (ssize_t n; (n = read(fds[0], buffer, sizeof(buffer))) > 0;) why.append(buffer, size_t(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  REQUIRE(WIFEXITED(status));
  REQUIRE(WEXITSTATUS(status) == 0);
  return why;
}

TEST_CASE("an unreadable energy_uj names the file and the root-only rule") {
  testing::TempDir root;
  write_zone(root, "intel-rapl:0", "package-0", 1);
  std::filesystem::permissions(
      root.path(), std::filesystem::perms::owner_all | std::filesystem::perms::group_read |
                       std::filesystem::perms::group_exec | std::filesystem::perms::others_read |
                       std::filesystem::perms::others_exec);
  const std::string energy = root.file("intel-rapl:0/energy_uj");
  REQUIRE(chmod(energy.c_str(), 0) == 0);
  const std::string why = open_error_unprivileged(root.path().string());
  CHECK_THAT(why, Contains(energy + ": permission denied"));
  CHECK_THAT(why, Contains("readable by root only since Linux 5.10"));
}

TEST_CASE("the energy meter gives package joules over its window") {
  testing::TempDir root;
  write_two_packages(root);
  EnergyMeter meter(root.path().string(), nullptr);
  meter.start();
  set_energy(root, "intel-rapl:0", 2'000'000);
  set_energy(root, "intel-rapl:1", 5'500'000);
  const EnergyReading reading = meter.stop();
  REQUIRE(reading.cpu_joules.has_value());
  CHECK(*reading.cpu_joules == 1.5);
  CHECK(reading.cpu_unavailable.empty());
  CHECK(reading.cpu_zones == 2);
  CHECK(reading.seconds >= 0);
  CHECK_FALSE(reading.gpu_joules.has_value());
  CHECK(reading.gpu_unavailable == "NVML not loaded");
  CHECK(reading.gpus == 0);
  CHECK_THROWS_AS(meter.stop(), std::logic_error);
}

TEST_CASE("polling the energy meter carries a window through several wraps") {
  testing::TempDir root;
  constexpr uint64_t kSmallRange = 1'000'000;
  write_zone(root, "intel-rapl:0", "package-0", 100, kSmallRange);
  EnergyMeter meter(root.path().string(), nullptr);
  meter.start();
  set_energy(root, "intel-rapl:0", kSmallRange);  // +999'900
  meter.poll();
  set_energy(root, "intel-rapl:0", 50);  // wraps: +51
  meter.poll();
  set_energy(root, "intel-rapl:0", kSmallRange - 10);  // +999'940
  meter.poll();
  set_energy(root, "intel-rapl:0", 20);  // wraps: +31
  const EnergyReading reading = meter.stop();
  REQUIRE(reading.cpu_joules.has_value());
  CHECK(*reading.cpu_joules == Approx(1.999922).epsilon(1e-12));
}

TEST_CASE("a counter that turns unreadable mid-window loses the window's cpu figure") {
  testing::TempDir root;
  write_zone(root, "intel-rapl:0", "package-0", 100);
  EnergyMeter meter(root.path().string(), nullptr);
  meter.start();
  const std::string energy = root.file("intel-rapl:0/energy_uj");
  write_text(energy, "garbage\n");
  meter.poll();
  set_energy(root, "intel-rapl:0", 200);  // readable again: the gap still voids the window
  EnergyReading reading = meter.stop();
  CHECK_FALSE(reading.cpu_joules.has_value());
  CHECK(reading.cpu_zones == 0);
  CHECK_THAT(reading.cpu_unavailable, Contains(energy + ": expected a whole number"));

  meter.start();  // a fresh window measures again
  set_energy(root, "intel-rapl:0", 1'200);
  reading = meter.stop();
  REQUIRE(reading.cpu_joules.has_value());
  CHECK(*reading.cpu_joules == Approx(0.001).epsilon(1e-12));
}

TEST_CASE("the energy meter passes on why powercap is unavailable") {
  testing::TempDir dir;
  EnergyMeter meter(dir.file("missing"), nullptr);
  meter.start();
  const EnergyReading reading = meter.stop();
  CHECK_FALSE(reading.cpu_joules.has_value());
  CHECK_THAT(reading.cpu_unavailable, Contains(dir.file("missing") + " does not exist"));
}

TEST_CASE("this machine's powercap gives a figure or a reason, never both or neither") {
  EnergyMeter meter;  // /sys/class/powercap
  meter.start();
  const EnergyReading reading = meter.stop();
  CHECK(reading.cpu_joules.has_value() == reading.cpu_unavailable.empty());
  CHECK((reading.cpu_zones > 0) == reading.cpu_joules.has_value());
  if (reading.cpu_joules) {
    CHECK(*reading.cpu_joules >= 0);
    WARN("CPU package energy here: " << *reading.cpu_joules << " J over " << reading.cpu_zones
                                     << " zone(s)");
  } else {
    WARN("no CPU package energy here: " << reading.cpu_unavailable);
  }
}

TEST_CASE("without NVML the gpu energy is unavailable with NVML's reason") {
  const Nvml missing("libinfergate-no-such-nvml.so.1");
  std::string why;
  CHECK_FALSE(missing.total_energy_joules(0, &why).has_value());
  CHECK(why == "no GPU 0 in NVML");
  CHECK_FALSE(missing.total_energy_joules(-1).has_value());

  testing::TempDir root;
  write_two_packages(root);
  EnergyMeter meter(root.path().string(), &missing);
  meter.start();
  const EnergyReading reading = meter.stop();
  CHECK_FALSE(reading.gpu_joules.has_value());
  CHECK(reading.gpus == 0);
  CHECK_FALSE(reading.gpu_unavailable.empty());
  CHECK(reading.gpu_unavailable == missing.unavailable_reason());
  CHECK(reading.cpu_joules.has_value());  // one side missing does not void the other
}

TEST_CASE("this machine's gpus give an energy figure or a reason, never both or neither") {
  const Nvml system;  // no GPU on CI: unavailable
  EnergyMeter meter(PowercapEnergy::kDefaultRoot, &system);
  meter.start();
  const EnergyReading reading = meter.stop();
  CHECK(reading.gpu_joules.has_value() == reading.gpu_unavailable.empty());
  CHECK((reading.gpus > 0) == reading.gpu_joules.has_value());
  if (reading.gpu_joules) CHECK(*reading.gpu_joules >= 0);
}
