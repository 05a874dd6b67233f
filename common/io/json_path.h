// Dotted-path lookup in a JSON document ("manifest.host.cpu_model"): how the gates name the
// fields they compare and show.
#pragma once

#include <nlohmann/json.hpp>
#include <string_view>

namespace infergate {

// The value at `dotted` (keys separated by '.', no escaping: keys containing a dot cannot be
// named), or a null value when some step is missing or not an object. The reference stays valid
// as long as `doc` does.
const nlohmann::json& json_at_path(const nlohmann::json& doc, std::string_view dotted);

}  // namespace infergate
