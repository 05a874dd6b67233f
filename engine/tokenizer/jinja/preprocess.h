// The rewrite @huggingface/jinja applies to a template before lexing it (lexer.ts, preprocess):
// one trailing newline dropped, lstrip_blocks and trim_blocks (both on in transformers.js) and
// transformers' {% generation %} / {% endgeneration %} tags removed. Every byte of the result
// remembers where it came from, so errors point into the template as written.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace infergate::jinja {

struct MappedText {
  std::string text;
  // origin[i]: the source offset of text[i]; one more entry, for the end, holds the source size.
  std::vector<uint32_t> origin;
};

MappedText preprocess(std::string_view source);

}  // namespace infergate::jinja
