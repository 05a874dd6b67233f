#include "common/imports/import_json_text.h"

#include <cctype>

#include "common/imports/import_error.h"
#include "common/imports/import_limits.h"
#include "common/io/input_file.h"
#include "common/io/json_text.h"

namespace infergate {

namespace {

// Counts what a document would allocate without building it: entries of each open array and
// values overall. Stops at the first excess; a syntax error is left to the real parse, which
// reports its position.
class BoundsCheck : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string excess;  // why the document is refused; empty when within bounds

  bool null() override { return value(); }
  bool boolean(bool) override { return value(); }
  bool number_integer(number_integer_t) override { return value(); }
  bool number_unsigned(number_unsigned_t) override { return value(); }
  bool number_float(number_float_t, const string_t&) override { return value(); }
  bool string(string_t&) override { return value(); }
  bool binary(binary_t&) override { return value(); }
  bool start_object(std::size_t) override {
    open_.push_back(0);
    arrays_.push_back(false);
    return value();
  }
  bool key(string_t&) override { return true; }
  bool end_object() override { return close(); }
  bool start_array(std::size_t) override {
    const bool ok = value();
    open_.push_back(0);
    arrays_.push_back(true);
    return ok;
  }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    return false;
  }

 private:
  std::vector<uint64_t> open_;  // entries of each open container
  std::vector<bool> arrays_;
  uint64_t values_ = 0;

  bool value() {
    if (++values_ > kMaxImportValues) {
      excess = "holds more than " + std::to_string(kMaxImportValues) + " JSON values";
      return false;
    }
    if (!open_.empty() && arrays_.back() && ++open_.back() > kMaxImportArrayEntries) {
      excess = "has an array of more than " + std::to_string(kMaxImportArrayEntries) + " entries";
      return false;
    }
    return true;
  }
  bool close() {
    open_.pop_back();
    arrays_.pop_back();
    return true;
  }
};

// Python's json.dump writes NaN and Infinity as bare tokens, which JSON does not allow.
std::string non_finite_hint(std::string_view text, uint64_t at) {
  for (const std::string_view token : {"NaN", "Infinity", "-Infinity"}) {
    for (uint64_t back = 0; back <= 1 && back <= at; ++back) {
      if (text.substr(at - back, token.size()) == token) {
        return " (a bare " + std::string(token) +
               ": the tool wrote a non-finite number, which JSON does not allow)";
      }
    }
  }
  return "";
}

// `bounds` is shared by the lines of one JSON Lines file, so their values count together.
nlohmann::json parse_bounded(std::string_view text, const std::string& where, BoundsCheck& bounds) {
  nlohmann::json::sax_parse(text, &bounds, nlohmann::json::input_format_t::json,
                            /*strict=*/true);
  if (!bounds.excess.empty()) throw ImportError(where + ": " + bounds.excess + "; refused");
  try {
    return parse_json_text(text);
  } catch (const JsonTextError& e) {
    // A parse that fails at the last byte: the file stops mid-document.
    const std::string cut = e.byte() + 1 >= text.size() ? " (the text ends there: truncated?)" : "";
    throw ImportError(where + ": not JSON " + e.what() + non_finite_hint(text, e.byte()) + cut);
  }
}

struct Line {
  size_t number;  // 1-based, in the file
  std::string_view text;
};

std::vector<Line> non_empty_lines(std::string_view text) {
  std::vector<Line> lines;
  size_t number = 1;
  for (size_t start = 0; start < text.size(); ++number) {
    const size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    if (line.find_first_not_of(" \t\r") != std::string_view::npos) lines.push_back({number, line});
    start = end + 1;
  }
  return lines;
}

// JSON Lines: more than one line, each one a whole object (a pretty-printed file's lines are
// not: its first is "{" alone).
bool looks_like_json_lines(const std::vector<Line>& lines) {
  if (lines.size() < 2) return false;
  for (const auto& [number, line] : lines) {
    const size_t first = line.find_first_not_of(" \t");
    const size_t last = line.find_last_not_of(" \t\r");
    if (line[first] != '{' || line[last] != '}' || last == first) return false;
  }
  return true;
}

}  // namespace

std::vector<ImportedDocument> parse_import_text(std::string_view text, const std::string& file) {
  const std::vector<Line> lines = non_empty_lines(text);
  BoundsCheck bounds;
  if (lines.empty()) throw ImportError(file + ": empty file, expected JSON");
  if (!looks_like_json_lines(lines)) return {{parse_bounded(text, file, bounds), "$"}};
  if (lines.size() > kMaxImportArrayEntries) {
    throw ImportError(file + ": holds more than " + std::to_string(kMaxImportArrayEntries) +
                      " JSON Lines entries; refused");
  }
  std::vector<ImportedDocument> docs;
  for (const auto& [number, line] : lines) {
    const std::string place = "line " + std::to_string(number);
    docs.push_back({parse_bounded(line, file + ": " + place, bounds), place + ": $"});
  }
  return docs;
}

std::vector<ImportedDocument> read_import_documents(const std::string& path) {
  std::string text;
  try {
    text = read_regular_file(path, kMaxImportFileBytes);
  } catch (const InputFileError& e) {
    throw ImportError(e.what());
  }
  return parse_import_text(text, path);
}

}  // namespace infergate
