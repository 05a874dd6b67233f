#include "sim/hardware_spec.h"

#include <stdexcept>

#include "common/io/json_text.h"
#include "sim/sim_catalog.h"
#include "sim/sim_file_reader.h"

namespace infergate {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
// Far beyond any device (an 8 TB/s HBM4 part, a 10 PFLOP/s FP4 one), so a unit slip is caught.
constexpr double kMaxMemoryGiB = 16384, kMaxBandwidthGBs = 1e5, kMaxTflops = 1e5;

LinkSpec read_link(SimObjectReader r) {
  LinkSpec l;
  l.name = r.string_or("name", "");
  const double gbs = r.positive("bandwidth_gb_s");
  if (gbs > kMaxBandwidthGBs) r.fail("bandwidth_gb_s", "must be <= 100000 (GB/s)");
  l.bandwidth_bytes_s = gbs * 1e9;
  l.latency_s = r.non_negative_or("latency_us", 0) * 1e-6;
  r.finish();
  return l;
}

}  // namespace

const std::vector<std::string>& compute_dtype_names() {
  static const std::vector<std::string> names = {"f32", "bf16", "f16", "fp8", "int8"};
  return names;
}

double HardwareSpec::peak_flops_for(const std::string& dtype) const {
  const auto it = peak_flops.find(dtype);
  if (it != peak_flops.end()) return it->second;
  std::string have;
  for (const auto& [d, v] : peak_flops) have += (have.empty() ? "" : ", ") + d;
  throw std::invalid_argument("hardware " + name + " has no " + dtype +
                              " compute (its peak_tflops give: " + have + ")");
}

HardwareSpec parse_hardware_spec(const nlohmann::json& doc, const std::string& file) {
  SimObjectReader r(doc, file);
  HardwareSpec h;
  h.name = r.string("name");
  h.description = r.string_or("description", "");
  h.sources = r.strings_or("sources");
  h.kind = r.choice("kind", {"gpu", "cpu"});
  const double gib = r.positive("memory_gib");
  if (gib > kMaxMemoryGiB) r.fail("memory_gib", "must be <= 16384 (GiB)");
  h.memory_bytes = gib * kGiB;
  h.reserved_bytes = r.non_negative_or("reserved_memory_gib", 0) * kGiB;
  if (h.reserved_bytes >= h.memory_bytes) {
    r.fail("reserved_memory_gib", "must be below memory_gib");
  }
  const double gbs = r.positive("memory_bandwidth_gb_s");
  if (gbs > kMaxBandwidthGBs) r.fail("memory_bandwidth_gb_s", "must be <= 100000 (GB/s)");
  h.memory_bandwidth_bytes_s = gbs * 1e9;
  SimObjectReader peaks = r.child("peak_tflops");
  for (const std::string& dtype : peaks.keys()) {
    bool known = false;
    for (const std::string& d : compute_dtype_names()) known = known || d == dtype;
    if (!known) peaks.fail(dtype, "unknown compute dtype (allowed: f32, bf16, f16, fp8, int8)");
    const double tflops = peaks.positive(dtype);
    if (tflops > kMaxTflops) peaks.fail(dtype, "must be <= 100000 (TFLOP/s)");
    h.peak_flops[dtype] = tflops * 1e12;
  }
  if (h.peak_flops.empty()) r.fail("peak_tflops", "must give at least one dtype's peak");
  h.devices_per_node = r.integer_or("devices_per_node", 1, 1, 1024);
  if (h.kind == "cpu") {
    h.cores = r.integer_or("cores", 0, 1, 4096);
    if (h.cores == 0) r.fail("cores", "missing (cpu: the cores the peak and bandwidth are for)");
  } else if (r.has("cores")) {
    r.fail("cores", "only for kind cpu");
  }
  h.intra_node = read_link(r.child("intra_node"));
  h.inter_node = read_link(r.child("inter_node"));
  r.finish();
  return h;
}

HardwareSpec load_hardware_spec(const std::string& name_or_path) {
  if (const char* text = sim_catalog_text("hardware", name_or_path)) {
    return parse_hardware_spec(parse_json_text(text), "sim/hardware/" + name_or_path + ".json");
  }
  if (name_or_path.find('/') == std::string::npos &&
      name_or_path.find(".json") == std::string::npos) {
    throw SimFileError("hardware '" + name_or_path + "': no such built-in hardware (built in: " +
                       sim_catalog_list("hardware") + "; or give a path to a .json file)");
  }
  return parse_hardware_spec(read_sim_json_file(name_or_path), name_or_path);
}

nlohmann::json hardware_spec_to_json(const HardwareSpec& h) {
  nlohmann::json peaks = nlohmann::json::object();
  for (const auto& [d, v] : h.peak_flops) peaks[d] = v / 1e12;
  auto link = [](const LinkSpec& l) {
    return nlohmann::json{{"name", l.name},
                          {"bandwidth_gb_s", l.bandwidth_bytes_s / 1e9},
                          {"latency_us", l.latency_s * 1e6}};
  };
  return {{"name", h.name},
          {"kind", h.kind},
          {"memory_gib", h.memory_bytes / (1024.0 * 1024.0 * 1024.0)},
          {"memory_bandwidth_gb_s", h.memory_bandwidth_bytes_s / 1e9},
          {"peak_tflops", peaks},
          {"devices_per_node", h.devices_per_node},
          {"cores", h.cores},
          {"intra_node", link(h.intra_node)},
          {"inter_node", link(h.inter_node)}};
}

}  // namespace infergate
