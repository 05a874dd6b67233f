// CPU package energy from Linux powercap (RAPL): each top-level `intel-rapl:N` zone under
// /sys/class/powercap whose name starts with "package-" keeps `energy_uj`, a cumulative
// microjoule counter that wraps to 0 past `max_energy_range_uj`. AMD Zen packages appear there
// too (Linux >= 5.8). Subzones (`intel-rapl:N:M`: core, uncore, dram) are parts of a package or
// beside it, and `psys` is the whole platform: adding either to the packages would count twice
// or mix scopes, so they are left out. Most VMs expose none of this; open() then says why.
//
//   std::string why_not;
//   std::optional<PowercapEnergy> rapl = PowercapEnergy::open("/sys/class/powercap", &why_not);
//   auto before = rapl->read_uj(&why_not);  ... run ...  auto after = rapl->read_uj(&why_not);
//   double joules = rapl->joules_between(*before, *after);
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace infergate {

struct PowercapZone {
  std::string dir;                   // e.g. "/sys/class/powercap/intel-rapl:0"
  std::string name;                  // e.g. "package-0"
  uint64_t max_energy_range_uj = 0;  // energy_uj counts in [0, max_energy_range_uj], then wraps
};

class PowercapEnergy {
 public:
  static constexpr const char* kDefaultRoot = "/sys/class/powercap";
  static constexpr int kMaxZones = 64;

  // The package zones under `root`, each already read once; nullopt when there is none or one
  // cannot be read, with the reason in `why_not` ("/sys/class/powercap does not exist: ...",
  // "...energy_uj: permission denied (...)").
  static std::optional<PowercapEnergy> open(const std::string& root, std::string* why_not);

  const std::vector<PowercapZone>& zones() const { return zones_; }
  // Each zone's energy_uj now, in zones() order; nullopt with the reason when one fails.
  std::optional<std::vector<uint64_t>> read_uj(std::string* why_not) const;
  // Joules used between two read_uj() results, summed over the zones; each counter may have
  // wrapped at most once in between (see energy_delta_uj).
  double joules_between(const std::vector<uint64_t>& before,
                        const std::vector<uint64_t>& after) const;

 private:
  explicit PowercapEnergy(std::vector<PowercapZone> zones) : zones_(std::move(zones)) {}
  std::vector<PowercapZone> zones_;
};

// Microjoules a counter with range [0, max_energy_range_uj] advanced from `before` to `after`,
// assuming at most one wrap. A counter wraps every few minutes to an hour under load (2^32
// energy units), so a longer window must be read in between (EnergyMeter::poll).
uint64_t energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_energy_range_uj);

}  // namespace infergate
