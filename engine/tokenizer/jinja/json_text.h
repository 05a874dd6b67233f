// @huggingface/jinja's toJSON (runtime.ts): the text of `tojson` and of lists and objects
// written out. Python json.dumps's layout: ", " and ": " separators, or "," with an indent, empty
// containers as [] and {}; strings as JSON.stringify writes them (non-ASCII kept unless
// ensure_ascii). sort_keys sorts by UTF-16 code units, where JS would use localeCompare.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "engine/tokenizer/jinja/render_state.h"

namespace infergate::jinja {

struct JsonOptions {
  double indent = 0;  // 0: none; JS truthiness decides, as in toJSON
  bool ensure_ascii = false;
  std::optional<std::pair<std::string, std::string>> separators;  // item, key
  bool sort_keys = false;
  // true for tojson; false where a list or object is written out, which shows undefined.
  bool undefined_as_null = true;
};

std::string to_json(RenderState& state, const Value& value, const JsonOptions& options = {});

// JSON.stringify of a string, quotes included.
void append_json_string(std::string& out, std::string_view text, bool ensure_ascii);

}  // namespace infergate::jinja
