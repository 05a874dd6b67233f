// Source offsets to lines and columns (1-based; columns count characters), for error messages.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/tokenizer/jinja/template_error.h"

namespace infergate::jinja {

class LineIndex {
 public:
  explicit LineIndex(std::string_view source);
  SourcePos at(uint32_t offset) const;

 private:
  std::string source_;
  std::vector<uint32_t> line_starts_;
};

}  // namespace infergate::jinja
