#include "bench/telemetry/powercap_energy.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <system_error>

namespace infergate {
namespace {

namespace fs = std::filesystem;

// powercap attributes are one short line; anything longer is not what we expect.
constexpr size_t kMaxFileBytes = 64;
constexpr std::string_view kZonePrefix = "intel-rapl:";
constexpr std::string_view kPackagePrefix = "package-";

std::string read_error(const std::string& path, int error) {
  if (error == EACCES) {
    std::string why = path + ": permission denied";
    if (fs::path(path).filename() == "energy_uj") {
      // The PLATYPUS side channel (CVE-2020-8694) made the counter root-only.
      why +=
          " (energy_uj is readable by root only since Linux 5.10; run as root or grant read "
          "access)";
    }
    return why;
  }
  return path + ": " + std::strerror(error);
}

// The whole of a small file, without its trailing newline; nullopt with the reason otherwise.
// A raw read: sysfs answers one read() with the whole attribute.
std::optional<std::string> read_attribute(const std::string& path, std::string* why_not) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    *why_not = read_error(path, errno);
    return std::nullopt;
  }
  char buffer[kMaxFileBytes + 1];
  size_t size = 0;
  ssize_t n = 0;
  while (size < sizeof(buffer) && (n = read(fd, buffer + size, sizeof(buffer) - size)) > 0) {
    size += static_cast<size_t>(n);
  }
  const int error = errno;
  close(fd);
  if (n < 0) {
    *why_not = read_error(path, error);
    return std::nullopt;
  }
  if (size > kMaxFileBytes) {
    *why_not = path + ": longer than " + std::to_string(kMaxFileBytes) +
               " bytes, not a powercap attribute";
    return std::nullopt;
  }
  std::string text(buffer, size);
  if (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

// `text` with anything unprintable shown as '?', for an error message.
std::string printable(std::string text) {
  for (char& c : text) {
    if (c < 0x20 || c > 0x7e) c = '?';
  }
  return text;
}

std::optional<uint64_t> read_counter(const std::string& path, std::string* why_not) {
  const std::optional<std::string> text = read_attribute(path, why_not);
  if (!text) return std::nullopt;
  uint64_t value = 0;
  const char* end = text->data() + text->size();
  const auto [last, ec] = std::from_chars(text->data(), end, value);
  if (text->empty() || ec != std::errc() || last != end) {
    *why_not =
        path + ": expected a whole number of microjoules, found \"" + printable(*text) + "\"";
    return std::nullopt;
  }
  return value;
}

// N of a top-level zone directory "intel-rapl:N"; nullopt for anything else (subzones
// "intel-rapl:N:M", the "intel-rapl" control type, "intel-rapl-mmio:N" duplicates).
std::optional<int> top_level_zone(const std::string& entry) {
  if (entry.rfind(kZonePrefix, 0) != 0) return std::nullopt;
  const char* begin = entry.data() + kZonePrefix.size();
  const char* end = entry.data() + entry.size();
  int index = 0;
  const auto [last, ec] = std::from_chars(begin, end, index);
  if (begin == end || ec != std::errc() || last != end || index < 0) return std::nullopt;
  return index;
}

// The zone in `dir` when it is a package; nullopt otherwise, with `why_not` set on a failure
// (left empty for a zone that is simply not a package).
std::optional<PowercapZone> open_zone(const fs::path& dir, std::string* why_not) {
  PowercapZone zone;
  zone.dir = dir.string();
  const std::optional<std::string> name = read_attribute(zone.dir + "/name", why_not);
  if (!name) return std::nullopt;
  if (name->rfind(kPackagePrefix, 0) != 0) return std::nullopt;  // psys
  zone.name = *name;
  const std::string range_path = zone.dir + "/max_energy_range_uj";
  const std::optional<uint64_t> range = read_counter(range_path, why_not);
  if (!range) return std::nullopt;
  if (*range == 0) {
    *why_not = range_path + ": holds 0, expected a positive counter range";
    return std::nullopt;
  }
  zone.max_energy_range_uj = *range;
  return zone;
}

// The top-level zone directories under `root`, by N; nullopt with the reason when `root` cannot
// be listed or holds too many.
std::optional<std::vector<std::pair<int, fs::path>>> zone_dirs(const std::string& root,
                                                               std::string* why_not) {
  std::error_code ec;
  std::vector<std::pair<int, fs::path>> dirs;
  for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec)) {
    const std::optional<int> index = top_level_zone(it->path().filename().string());
    std::error_code ignored;  // a dangling entry is skipped, not an error of the listing
    if (!index || !fs::is_directory(it->path(), ignored)) continue;  // sysfs: a link to a dir
    if (dirs.size() == PowercapEnergy::kMaxZones) {
      *why_not = root + ": more than " + std::to_string(PowercapEnergy::kMaxZones) +
                 " RAPL zones, refusing to read them";
      return std::nullopt;
    }
    dirs.emplace_back(*index, it->path());
  }
  if (ec) {
    *why_not = root + ": " + ec.message();
    return std::nullopt;
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

}  // namespace

std::optional<PowercapEnergy> PowercapEnergy::open(const std::string& root, std::string* why_not) {
  std::error_code ec;
  if (!fs::exists(root, ec)) {
    *why_not = ec ? root + ": " + ec.message()
                  : root + " does not exist: this kernel or VM exposes no powercap interface";
    return std::nullopt;
  }
  const auto dirs = zone_dirs(root, why_not);
  if (!dirs) return std::nullopt;
  std::vector<PowercapZone> zones;
  for (const auto& [index, dir] : *dirs) {
    why_not->clear();
    std::optional<PowercapZone> zone = open_zone(dir, why_not);
    if (!zone && !why_not->empty()) return std::nullopt;
    if (zone) zones.push_back(std::move(*zone));
  }
  if (zones.empty()) {
    *why_not = "no RAPL package zone under " + root + " (virtual machines usually hide it)";
    return std::nullopt;
  }
  PowercapEnergy energy(std::move(zones));
  if (!energy.read_uj(why_not)) return std::nullopt;  // unreadable counters: say so now
  why_not->clear();
  return energy;
}

std::optional<std::vector<uint64_t>> PowercapEnergy::read_uj(std::string* why_not) const {
  std::vector<uint64_t> values;
  values.reserve(zones_.size());
  for (const PowercapZone& zone : zones_) {
    const std::string path = zone.dir + "/energy_uj";
    const std::optional<uint64_t> value = read_counter(path, why_not);
    if (!value) return std::nullopt;
    if (*value > zone.max_energy_range_uj) {
      *why_not = path + ": " + std::to_string(*value) + " exceeds max_energy_range_uj " +
                 std::to_string(zone.max_energy_range_uj);
      return std::nullopt;
    }
    values.push_back(*value);
  }
  return values;
}

double PowercapEnergy::joules_between(const std::vector<uint64_t>& before,
                                      const std::vector<uint64_t>& after) const {
  if (before.size() != zones_.size() || after.size() != zones_.size()) {
    throw std::invalid_argument("PowercapEnergy::joules_between: readings of other zones");
  }
  uint64_t total_uj = 0;
  for (size_t i = 0; i < zones_.size(); ++i) {
    total_uj += energy_delta_uj(before[i], after[i], zones_[i].max_energy_range_uj);
  }
  return static_cast<double>(total_uj) * 1e-6;
}

uint64_t energy_delta_uj(uint64_t before, uint64_t after, uint64_t max_energy_range_uj) {
  if (after >= before) return after - before;
  // The documented range [0, max] holds max + 1 values. The hardware's true modulus is 2^32
  // energy units, one unit (15-61 uJ) above the max the kernel reports, so a wrapped delta may
  // be short by less than one unit: below the counter's own resolution.
  return (max_energy_range_uj - before) + after + 1;
}

}  // namespace infergate
