#include "engine/tokenizer/jinja/line_index.h"

#include <algorithm>

#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {

LineIndex::LineIndex(std::string_view source) : source_(source) {
  line_starts_.push_back(0);
  for (size_t i = 0; i < source.size(); ++i) {
    if (source[i] == '\n') line_starts_.push_back(static_cast<uint32_t>(i + 1));
  }
}

SourcePos LineIndex::at(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, static_cast<uint32_t>(source_.size()));
  const auto next = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  const uint32_t start = *(next - 1);
  int column = 1;
  for (size_t pos = start; pos < offset; pos += decode_utf8(source_, pos).size) ++column;
  return {static_cast<int>(next - line_starts_.begin()), column};
}

}  // namespace infergate::jinja
