// Reading the JSON of another tool's results file without trusting it: the size of the file, of
// every array and of the whole document is bounded before nlohmann::json allocates anything
// (import_limits.h), and a file may hold one JSON value or JSON Lines (one object per line:
// vLLM's --append-result, AIPerf's profile_export.jsonl). Syntax errors give the line, column
// and byte offset; bare NaN/Infinity tokens (Python's json.dump writes them) are named as such.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

struct ImportedDocument {
  nlohmann::json value;
  std::string root_path;  // "$" for a whole file, "line 3: $" for a JSON Lines entry
};

// The documents of `path`: one for a JSON file, one per non-empty line for JSON Lines. Throws
// ImportError naming the file ("v.json: not JSON at line 1, column 2049 (byte offset 2048): ...").
std::vector<ImportedDocument> read_import_documents(const std::string& path);
// The same for text already read; `file` names it in errors.
std::vector<ImportedDocument> parse_import_text(std::string_view text, const std::string& file);

}  // namespace infergate
