#include "sim/sim_catalog.h"

#include <algorithm>

#include "sim_catalog_text.h"

namespace infergate {

std::vector<std::string> sim_catalog_names(const std::string& kind) {
  std::vector<std::string> names;
  for (const SimCatalogEntry& e : kSimCatalog) {
    if (kind == e.kind) names.push_back(e.name);
  }
  std::sort(names.begin(), names.end());
  return names;
}

const char* sim_catalog_text(const std::string& kind, const std::string& name) {
  for (const SimCatalogEntry& e : kSimCatalog) {
    if (kind == e.kind && name == e.name) return e.text;
  }
  return nullptr;
}

std::string sim_catalog_list(const std::string& kind) {
  std::string list;
  for (const std::string& n : sim_catalog_names(kind)) list += (list.empty() ? "" : ", ") + n;
  return list;
}

}  // namespace infergate
