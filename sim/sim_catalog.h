// The hardware and model-shape files shipped in sim/hardware and sim/models, compiled into the
// binary (sim/CMakeLists.txt), so they are found by name wherever infergate runs.
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct SimCatalogEntry {
  const char* kind;  // "hardware" | "models": the folder
  const char* name;  // the file name without .json
  const char* text;
};

// The names of one kind, sorted.
std::vector<std::string> sim_catalog_names(const std::string& kind);
// The text of `name`, or nullptr when there is none.
const char* sim_catalog_text(const std::string& kind, const std::string& name);
// "a, b, c": for error messages.
std::string sim_catalog_list(const std::string& kind);

}  // namespace infergate
