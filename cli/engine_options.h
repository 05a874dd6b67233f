// Command-line flags for every engine switch, shared by the commands that build an engine.
#pragma once

#include <boost/program_options.hpp>

#include "engine/core/engine_config.h"

namespace infergate {

// Adds --weight-dtype, --kv-dtype, --block-size, --no-paged-kv, ... bound to `config`.
void add_engine_options(boost::program_options::options_description& desc, EngineConfig& config,
                        std::string& kv_dtype);
// Applies the flags that are switches (present means "off") after parsing.
void apply_engine_switches(const boost::program_options::variables_map& vm, EngineConfig& config,
                           const std::string& kv_dtype);

}  // namespace infergate
