#include "bench/workload/engine_config_json.h"

#include <algorithm>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"
#include "engine/core/engine_config_fields.h"

namespace infergate {

namespace {

// EngineConfig::validate() says "engine config: FIELD = VALUE (allowed: ALLOWED)"; restate it
// at $.target.engine.FIELD in the workload's words, or keep it whole at the engine object.
WorkloadError engine_complaint(const JsonObjectReader& r, const std::string& message) {
  const std::string prefix = "engine config: ", marker = " (allowed: ";
  const size_t equals = message.find(" = ");
  const size_t allowed = message.find(marker);
  if (message.rfind(prefix, 0) != 0 || equals == std::string::npos ||
      allowed == std::string::npos || allowed < equals || message.back() != ')') {
    return WorkloadError(r.file(), r.path(), "", "", message);
  }
  const std::string field = message.substr(prefix.size(), equals - prefix.size());
  const std::string value = message.substr(equals + 3, allowed - equals - 3);
  const size_t begin = allowed + marker.size();
  const std::string rule = message.substr(begin, message.size() - 1 - begin);
  return WorkloadError::not_allowed(r.file(), r.path_of(field), value, rule);
}

// Reads `key` of `r` into `field` of `c` (absent: left as it is, the default).
void read_field(JsonObjectReader& r, const std::string& key, const EngineConfigField& field,
                EngineConfig& c) {
  struct Read {
    JsonObjectReader& r;
    const std::string& key;
    const EngineConfigField& field;
    EngineConfig& c;
    void operator()(bool EngineConfig::*m) const { c.*m = r.get_bool(key, c.*m); }
    void operator()(int EngineConfig::*m) const { c.*m = r.get_int(key, c.*m); }
    void operator()(int64_t EngineConfig::*m) const { c.*m = r.get_int64(key, c.*m); }
    void operator()(uint64_t EngineConfig::*m) const { c.*m = r.get_uint64(key, c.*m); }
    void operator()(double EngineConfig::*m) const { c.*m = r.get_double(key, c.*m); }
    void operator()(std::vector<int> EngineConfig::*m) const { c.*m = r.get_int_list(key, c.*m); }
    void operator()(std::string EngineConfig::*m) const { c.*m = r.get_string(key, c.*m); }
    void operator()(const ChoiceAccess& a) const {
      a.set(c, r.get_choice(key, a.get(c), field.choices));
    }
  };
  std::visit(Read{r, key, field, c}, field.access);
}

nlohmann::json field_json(const EngineConfigField& field, const EngineConfig& c) {
  return std::visit(
      [&c](const auto& access) -> nlohmann::json {
        if constexpr (std::is_same_v<std::decay_t<decltype(access)>, ChoiceAccess>) {
          return access.get(c);
        } else {
          return c.*access;
        }
      },
      field.access);
}

}  // namespace

EngineConfig read_engine_config(JsonObjectReader& r) {
  EngineConfig c;
  // Top-level keys first, then each nested object ("debug") as a whole, as the file nests them.
  std::vector<std::string> nested;
  for (const EngineConfigField& f : engine_config_fields()) {
    const size_t dot = f.key.find('.');
    if (dot == std::string::npos) {
      read_field(r, f.key, f, c);
    } else if (std::find(nested.begin(), nested.end(), f.key.substr(0, dot)) == nested.end()) {
      nested.push_back(f.key.substr(0, dot));
    }
  }
  for (const std::string& object : nested) {
    if (!r.has(object)) continue;
    JsonObjectReader child = r.child(object);
    for (const EngineConfigField& f : engine_config_fields()) {
      if (f.key.rfind(object + ".", 0) == 0)
        read_field(child, f.key.substr(object.size() + 1), f, c);
    }
    child.finish();
  }
  r.finish();
  // A deadline past a day is no deadline, and seconds beyond that overflow the clock's ns.
  r.check(c.comm_timeout_s <= kMaxTimeoutS, "comm_timeout_s",
          "must be > 0 and <= " + std::to_string(int64_t(kMaxTimeoutS)) + " (seconds)");
  try {
    c.validate();
  } catch (const std::invalid_argument& e) {
    throw engine_complaint(r, e.what());
  }
  return c;
}

nlohmann::json engine_config_to_json(const EngineConfig& c) {
  nlohmann::json j = nlohmann::json::object();
  for (const EngineConfigField& f : engine_config_fields()) {
    // Which fields are written is part of every workload's hash (WrittenWhen).
    if (!field_is_written(f, c)) continue;
    nlohmann::json value = field_json(f, c);
    const size_t dot = f.key.find('.');
    if (dot == std::string::npos) {
      j[f.key] = std::move(value);
    } else {
      j[f.key.substr(0, dot)][f.key.substr(dot + 1)] = std::move(value);
    }
  }
  return j;
}

}  // namespace infergate
