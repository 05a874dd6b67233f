#include "history/history_import.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "common/results/results_file.h"

namespace infergate {

namespace {

namespace fs = std::filesystem;

// Finds the top-level "schema" string of a JSON document without building it (results files
// put it after their points, so reading a prefix is not enough); stops once it is found.
class SchemaFinder : public nlohmann::json_sax<nlohmann::json> {
 public:
  std::string schema;

  bool key(string_t& k) override {
    at_schema_key_ = depth_ == 1 && k == "schema";
    return true;
  }
  bool string(string_t& v) override {
    if (!at_schema_key_) return true;
    schema = v;
    return false;  // found: stop parsing
  }
  bool start_object(std::size_t) override { return enter(); }
  bool start_array(std::size_t) override { return enter(); }
  bool end_object() override { return leave(); }
  bool end_array() override { return leave(); }
  bool null() override { return scalar(); }
  bool boolean(bool) override { return scalar(); }
  bool number_integer(number_integer_t) override { return scalar(); }
  bool number_unsigned(number_unsigned_t) override { return scalar(); }
  bool number_float(number_float_t, const string_t&) override { return scalar(); }
  bool binary(binary_t&) override { return scalar(); }
  bool parse_error(std::size_t at, const std::string&,
                   const nlohmann::detail::exception&) override {
    error = "not JSON at byte " + std::to_string(at);
    return false;
  }
  std::string error;  // set when the document is not JSON before its schema was found

 private:
  bool enter() {
    at_schema_key_ = false;
    ++depth_;
    return true;
  }
  bool leave() {
    --depth_;
    return true;
  }
  bool scalar() {
    at_schema_key_ = false;
    return true;
  }
  int depth_ = 0;
  bool at_schema_key_ = false;
};

// The top-level "schema", "" when there is none, or nullopt (with `why`) when the file is not
// JSON before it.
std::optional<std::string> schema_of(const fs::path& file, std::string& why) {
  std::ifstream in(file, std::ios::binary);
  if (!in) {
    why = "cannot be read";
    return std::nullopt;
  }
  SchemaFinder finder;
  // Strict: bytes after the first value are an error too (random bytes starting with a digit
  // parsed as the number alone and passed for "other JSON" in 1 run of ~20). A results file
  // stops at its schema, before the end.
  nlohmann::json::sax_parse(in, &finder, nlohmann::json::input_format_t::json, true);
  if (!finder.error.empty()) {
    why = finder.error;
    return std::nullopt;
  }
  return finder.schema;
}

std::vector<fs::path> json_files(const std::string& path) {
  std::vector<fs::path> files;
  const fs::path root(path);
  if (!fs::exists(root)) throw HistoryError("history import: " + path + " does not exist");
  if (fs::is_regular_file(root)) return {root};
  for (const fs::directory_entry& e : fs::recursive_directory_iterator(root)) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

ImportReport import_results(HistoryStore& store, const std::vector<std::string>& paths,
                            const std::function<bool()>& stop) {
  ImportReport report;
  for (const std::string& path : paths) {
    for (const fs::path& file : json_files(path)) {
      if (stop && stop()) {
        report.stopped = true;
        return report;
      }
      std::string why;
      const std::optional<std::string> schema = schema_of(file, why);
      if (!schema) {
        report.not_json.emplace_back(file.string(), why);
        continue;
      }
      if (*schema != kResultsSchema) {
        ++report.not_results;
        continue;
      }
      try {
        const AddOutcome o = store.add(file.string());
        ++(o.added ? report.added : report.already_stored);
      } catch (const ResultsError& e) {
        report.refused.emplace_back(file.string(), e.what());
      }
    }
  }
  return report;
}

}  // namespace infergate
