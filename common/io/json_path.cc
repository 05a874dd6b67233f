#include "common/io/json_path.h"

#include <algorithm>
#include <string>

namespace infergate {

const nlohmann::json& json_at_path(const nlohmann::json& doc, std::string_view dotted) {
  static const nlohmann::json kNull;
  const nlohmann::json* v = &doc;
  size_t begin = 0;
  while (begin <= dotted.size()) {
    const size_t end = std::min(dotted.find('.', begin), dotted.size());
    const std::string key(dotted.substr(begin, end - begin));
    if (!v->is_object() || !v->contains(key)) return kNull;
    v = &(*v)[key];
    begin = end + 1;
  }
  return *v;
}

}  // namespace infergate
