// The one declaration of every EngineConfig field: its workload key, C++ name, type, default,
// allowed values, CLI flag and doc. The workload reader and writer, validate()'s per-field
// checks, the CLI flags and the docs tables are all driven from this table, so they cannot
// drift apart. Rules that join fields stay hand-written in EngineConfig::validate().
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "engine/core/engine_config.h"

namespace infergate {

// A field held as a name (an enum or a DType), read and written through its name.
struct ChoiceAccess {
  std::string (*get)(const EngineConfig& config);
  // Throws std::invalid_argument in validate()'s words for a name not in `choices`.
  void (*set)(EngineConfig& config, const std::string& name);
};

using FieldMember =
    std::variant<bool EngineConfig::*, int EngineConfig::*, int64_t EngineConfig::*,
                 uint64_t EngineConfig::*, double EngineConfig::*, std::vector<int> EngineConfig::*,
                 std::string EngineConfig::*, ChoiceAccess>;

// When engine_config_to_json() writes a field: the resolved workload (and so its hash) of
// CPU single-rank workloads must stay what their baselines were measured with.
enum class WrittenWhen {
  kAlways,
  kWhenTrue,
  kWhenFalse,  // a switch that is on by default: resolved workloads name it only when it is off
  kWhenCuda,
  kWhenMultiRank,
  kWhenSpeculating,
  kWhenDraftModel,          // speculative.method draft_model or self
  kWhenInjectingStepErrors  // debug.inject_step_error_every > 0
};

struct EngineConfigField {
  std::string key{};     // workload key under target.engine; a dot nests ("debug.x")
  std::string member{};  // the C++ member's name
  FieldMember access{};
  std::string flag{};  // CLI flag without "--"; a bool's flag sets the opposite of its default
  std::string doc{};   // what the field means (docs/engine.md, --help)
  std::vector<std::string> choices{};  // a choice field's allowed names, in order
  // An integer or number field's range, checked by validate(); infinite: no bound.
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  std::string rule_note{};    // appended to the range in validate()'s message and the schema
  std::string schema_note{};  // what else docs/workload-schema.md says is allowed
  WrittenWhen written = WrittenWhen::kAlways;
};

// Every field, in the order the docs list them.
const std::vector<EngineConfigField>& engine_config_fields();
// The field of workload key `key`; throws std::out_of_range for none.
const EngineConfigField& engine_config_field(const std::string& key);

// The allowed values as validate() names them: "auto, f32, ...", "1..1024", ">= 0", "> 0";
// empty when anything of the type goes.
std::string field_rule(const EngineConfigField& field);
// Whether `config`'s value of `field` is within field_rule().
bool field_in_range(const EngineConfigField& field, const EngineConfig& config);
// `config`'s value as validate()'s messages and the docs print it ("16", "auto", "[]").
std::string field_value_text(const EngineConfigField& field, const EngineConfig& config);
// "bool", "integer", "number", "string", "array of integers".
std::string field_type_name(const EngineConfigField& field);
bool field_is_written(const EngineConfigField& field, const EngineConfig& config);

// The docs tables' rows, one line per field, from the table: docs/engine.md "Configuration"
// and docs/workload-schema.md's `engine` table (each with its header lines).
std::string render_engine_docs_table();
std::string render_workload_schema_table();

}  // namespace infergate
