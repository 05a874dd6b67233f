#include "common/results/machine_key.h"

#include <cctype>
#include <map>

namespace infergate {

namespace {

std::string slug(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (std::isalnum(static_cast<unsigned char>(c))) {
      out += char(std::tolower(static_cast<unsigned char>(c)));
    } else if (!out.empty() && out.back() != '-') {
      out += '-';
    }
  }
  while (!out.empty() && out.back() == '-') out.pop_back();
  return out;
}

std::string string_or(const nlohmann::json& v, const std::string& fallback) {
  return v.is_string() ? v.get<std::string>() : fallback;
}

}  // namespace

std::string machine_key(const ResultsFile& results) {
  // A simulated run does not depend on the host: every runner shares its baseline.
  const nlohmann::json& simulated = results.manifest.value("simulated", nlohmann::json());
  if (simulated.is_object()) {
    const nlohmann::json& hw = simulated.value("hardware", nlohmann::json::object());
    return "simulated-" + slug(string_or(hw.value("name", nlohmann::json()), "hardware"));
  }
  const nlohmann::json& host = results.manifest.value("host", nlohmann::json::object());
  // "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz" -> "intel-xeon-platinum-8481c": marks and
  // the clock add nothing to a folder name.
  std::string cpu = string_or(host.value("cpu_model", nlohmann::json()), "unknown-cpu");
  if (const size_t at = cpu.find(" @ "); at != std::string::npos) cpu.erase(at);
  for (const std::string mark : {"(R)", "(TM)", "(tm)", " CPU"}) {
    for (size_t at; (at = cpu.find(mark)) != std::string::npos;) cpu.erase(at, mark.size());
  }
  std::string key = slug(cpu);
  const nlohmann::json& cores = host.value("logical_cores", nlohmann::json());
  if (cores.is_number()) key += "-" + std::to_string(cores.get<int64_t>()) + "c";
  std::map<std::string, int> gpus;
  const nlohmann::json& gpu = results.manifest.value("gpu", nlohmann::json::object());
  for (const nlohmann::json& d : gpu.value("devices", nlohmann::json::array())) {
    ++gpus[slug(string_or(d.value("name", nlohmann::json()), "gpu"))];
  }
  for (const auto& [name, count] : gpus) key += "-" + std::to_string(count) + "x-" + name;
  return key;
}

}  // namespace infergate
