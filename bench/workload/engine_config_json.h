// EngineConfig in a workload file (`target.engine`): every field of the field table
// (engine_config_fields.h) under its key, and back.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/workload/json_object_reader.h"
#include "engine/core/engine_config.h"

namespace infergate {

// Reads every field (absent: the engine's default), then EngineConfig::validate(); its
// complaint becomes a WorkloadError at the field it names.
EngineConfig read_engine_config(JsonObjectReader& reader);

// Every field the table says is written for `config` (WrittenWhen), defaults included.
nlohmann::json engine_config_to_json(const EngineConfig& config);

}  // namespace infergate
