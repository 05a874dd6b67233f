// One accelerator (or CPU) as the simulator sees it: memory, bandwidth, peak FLOP/s per dtype
// and the links between devices. Read from sim/hardware/*.json (docs/simulator.md lists the
// fields and every file's sources).
#pragma once

#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace infergate {

// A link between two devices: bandwidth in one direction, and the latency of one message.
struct LinkSpec {
  std::string name;
  double bandwidth_bytes_s = 0;
  double latency_s = 0;
};

struct HardwareSpec {
  std::string name, description;
  std::string kind;  // gpu | cpu
  std::vector<std::string> sources;
  double memory_bytes = 0;
  double reserved_bytes = 0;  // per device: runtime, CUDA context, allocator slack
  double memory_bandwidth_bytes_s = 0;
  std::map<std::string, double> peak_flops;  // dense FLOP/s by compute dtype
  int devices_per_node = 1;
  int cores = 0;        // cpu: the cores the figures above are for (ranks and threads share them)
  LinkSpec intra_node;  // NVLink, PCIe, shared memory
  LinkSpec inter_node;  // InfiniBand, Ethernet

  // Throws std::invalid_argument naming the dtypes this hardware has.
  double peak_flops_for(const std::string& dtype) const;
  bool has_dtype(const std::string& dtype) const { return peak_flops.count(dtype) > 0; }
  // The link a group of `ranks` devices talks over: within a node while it fits in one.
  const LinkSpec& link_for(int ranks) const {
    return ranks <= devices_per_node ? intra_node : inter_node;
  }
};

// The compute dtypes a hardware file may give peaks for.
const std::vector<std::string>& compute_dtype_names();

// Throws SimFileError naming `file`, the field and the rule.
HardwareSpec parse_hardware_spec(const nlohmann::json& doc, const std::string& file);
// A built-in name (sim/hardware/NAME.json) or a path to a .json file.
HardwareSpec load_hardware_spec(const std::string& name_or_path);
nlohmann::json hardware_spec_to_json(const HardwareSpec& spec);

}  // namespace infergate
