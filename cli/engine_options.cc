#include "cli/engine_options.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "bench/workload/workload_limits.h"
#include "engine/core/engine_config_fields.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// "4,2" -> {4, 2}; throws std::invalid_argument naming the flag.
std::vector<int> parse_int_list(const std::string& text, const std::string& flag) {
  std::vector<int> out;
  size_t at = 0;
  while (at <= text.size()) {
    const size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    size_t used = 0;
    int value = 0;
    try {
      value = std::stoi(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size()) {
      throw std::invalid_argument(flag + " " + text + ": '" + item +
                                  "' is not an integer (want e.g. 4,2)");
    }
    out.push_back(value);
    at = comma + 1;
  }
  return out;
}

std::string help(const EngineConfigField& f) {
  const EngineConfig defaults;
  if (std::holds_alternative<bool EngineConfig::*>(f.access)) {
    return "sets " + f.member + " to " +
           (field_value_text(f, defaults) == "true" ? "false" : "true") + " (" + f.member + ": " +
           f.doc + ")";
  }
  std::string text = f.doc;
  const std::string rule = field_rule(f);
  if (!rule.empty()) text += " (allowed: " + rule + ")";
  if (!std::holds_alternative<double EngineConfig::*>(f.access)) {
    text += " [default: " + field_value_text(f, defaults) + "]";
  }
  return text;
}

// A flag's value type: the field's own, except lists and names, which arrive as text.
po::value_semantic* value_of(const EngineConfigField& f) {
  return std::visit(
      [](const auto& access) -> po::value_semantic* {
        using Access = std::decay_t<decltype(access)>;
        if constexpr (std::is_same_v<Access, ChoiceAccess> ||
                      std::is_same_v<Access, std::vector<int> EngineConfig::*>) {
          return po::value<std::string>();
        } else {
          return po::value<std::remove_reference_t<decltype(EngineConfig().*access)>>();
        }
      },
      f.access);
}

// The --kv-dtype message predates the table; scripts grep its words.
void check_kv_dtype(const std::string& name) {
  if (name != "f32" && name != "f16" && name != "bf16" && name != "int8" && name != "fp8_e4m3") {
    throw std::invalid_argument("--kv-dtype " + name.substr(0, 40) +
                                ": not a KV cache dtype (allowed: f32, f16, bf16, int8, fp8_e4m3)");
  }
}

void check_comm_timeout(double seconds) {
  if (!(seconds > 0 && seconds <= kMaxTimeoutS)) {
    std::ostringstream value;
    value << seconds;
    throw std::invalid_argument("--comm-timeout " + value.str() +
                                ": out of range (allowed: > 0 and <= " +
                                std::to_string(int64_t(kMaxTimeoutS)) + " seconds)");
  }
}

void apply_flag(const po::variable_value& given, const EngineConfigField& f, EngineConfig& c) {
  const EngineConfig defaults;
  std::visit(
      [&](const auto& access) {
        using Access = std::decay_t<decltype(access)>;
        if constexpr (std::is_same_v<Access, bool EngineConfig::*>) {
          c.*access = !(defaults.*access);
        } else if constexpr (std::is_same_v<Access, std::vector<int> EngineConfig::*>) {
          c.*access = parse_int_list(given.as<std::string>(), "--" + f.flag);
        } else if constexpr (std::is_same_v<Access, ChoiceAccess>) {
          if (f.key == "kv_cache_dtype") check_kv_dtype(given.as<std::string>());
          access.set(c, given.as<std::string>());
        } else {
          using Value = std::remove_reference_t<decltype(c.*access)>;
          c.*access = given.as<Value>();
        }
      },
      f.access);
}

}  // namespace

void add_engine_options(po::options_description& desc) {
  for (const EngineConfigField& f : engine_config_fields()) {
    if (std::holds_alternative<bool EngineConfig::*>(f.access)) {
      desc.add_options()(f.flag.c_str(), help(f).c_str());
    } else {
      desc.add_options()(f.flag.c_str(), value_of(f), help(f).c_str());
    }
  }
}

void apply_engine_options(const po::variables_map& vm, EngineConfig& c) {
  for (const EngineConfigField& f : engine_config_fields()) {
    if (vm.count(f.flag)) apply_flag(vm[f.flag], f, c);
  }
  // A contiguous cache has no blocks to share, so it takes prefix caching with it.
  if (vm.count("no-paged-kv")) c.prefix_caching = false;
  check_comm_timeout(c.comm_timeout_s);
}

}  // namespace infergate
