// Command-line flags for every engine switch, shared by the commands that build an engine: one
// flag per field of the field table (engine_config_fields.h).
#pragma once

#include <boost/program_options.hpp>

#include "engine/core/engine_config.h"

namespace infergate {

// Adds --weight-dtype, --kv-dtype, --block-size, --no-paged-kv, ...: each field's flag.
void add_engine_options(boost::program_options::options_description& desc);
// Sets the fields whose flags were given on `config` (the others keep their value); a bool's
// flag sets the opposite of its default. Throws std::invalid_argument naming the flag.
void apply_engine_options(const boost::program_options::variables_map& vm, EngineConfig& config);

}  // namespace infergate
