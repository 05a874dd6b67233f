#include "router/gpu_assignment.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <stdexcept>

namespace infergate {

namespace {

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string item = text.substr(start, comma - start);
    if (!item.empty()) out.push_back(item);
    start = comma + 1;
  }
  return out;
}

// /dev/nvidia0, /dev/nvidia1, ... in numeric order (not /dev/nvidiactl or /dev/nvidia-uvm).
std::vector<std::string> device_files() {
  static const std::regex numbered("nvidia([0-9]+)");
  std::vector<int> ids;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec)) {
    std::smatch m;
    const std::string name = entry.path().filename().string();
    if (std::regex_match(name, m, numbered) && m[1].length() < 6) ids.push_back(std::stoi(m[1]));
  }
  std::sort(ids.begin(), ids.end());
  std::vector<std::string> out;
  for (int id : ids) out.push_back(std::to_string(id));
  return out;
}

}  // namespace

std::vector<std::string> visible_gpus() {
  if (const char* env = std::getenv("CUDA_VISIBLE_DEVICES")) return split_commas(env);
  return device_files();
}

std::string replica_gpus(const std::vector<std::string>& gpus, int per_replica, int replica) {
  if (gpus.empty()) {
    throw std::invalid_argument(
        "--gpus-per-replica: no GPU to hand out (CUDA_VISIBLE_DEVICES names none and there is "
        "no /dev/nvidiaN)");
  }
  if (per_replica < 1 || size_t(per_replica) > gpus.size()) {
    throw std::invalid_argument("--gpus-per-replica " + std::to_string(per_replica) +
                                " is out of range (1 to " + std::to_string(gpus.size()) +
                                ", the GPUs visible here)");
  }
  std::string out;
  for (int j = 0; j < per_replica; ++j) {
    if (j > 0) out += ',';
    out += gpus[(size_t(replica) * size_t(per_replica) + size_t(j)) % gpus.size()];
  }
  return out;
}

}  // namespace infergate
