#include "engine/tokenizer/merge_symbols.h"

#include <algorithm>

#include "engine/tokenizer/utf8.h"

namespace infergate {

std::vector<MergeSymbol> utf8_symbols(std::string_view text) {
  std::vector<MergeSymbol> symbols;
  for (size_t pos = 0; pos < text.size();) {
    const size_t n = std::min(utf8_length(text[pos]), text.size() - pos);
    const int index = static_cast<int>(symbols.size());
    symbols.push_back({pos, n, index - 1, pos + n == text.size() ? -1 : index + 1});
    pos += n;
  }
  return symbols;
}

void merge_with_next(std::vector<MergeSymbol>& symbols, int left) {
  MergeSymbol& l = symbols[static_cast<size_t>(left)];
  MergeSymbol& r = symbols[static_cast<size_t>(l.next)];
  l.size += r.size;
  r.size = 0;
  l.next = r.next;
  if (r.next >= 0) symbols[static_cast<size_t>(r.next)].prev = left;
}

}  // namespace infergate
