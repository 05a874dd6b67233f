// Shared by the import tests: the fixtures (one synthetic 8-request run as each tool would have
// written it, tests/common/imports/fixtures/), edited copies of them in a temporary folder, and
// the check every imported document must pass: our own results reader accepts it.
#pragma once

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "common/imports/import_results_file.h"
#include "common/results/results_file.h"
#include "tests/temp_dir.h"

namespace infergate::testing {

inline std::string import_fixture(const std::string& name) {
  return std::string(INFERGATE_SOURCE_DIR) + "/tests/common/imports/fixtures/" + name;
}

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

inline std::string write_text(const TempDir& dir, const std::string& name,
                              const std::string& text) {
  const std::string path = dir.file(name);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

inline nlohmann::json read_fixture(const std::string& name) {
  return nlohmann::json::parse(read_text(import_fixture(name)));
}

// `doc` written as `name` (indented by `indent`, -1: one line) in a temporary folder, imported.
inline nlohmann::json import_edited(const nlohmann::json& doc, const std::string& name,
                                    int indent = -1) {
  const TempDir dir;
  return import_results_file(write_text(dir, name, doc.dump(indent)));
}

// The repetition's summary of an imported document, after our reader accepted the document.
inline nlohmann::json accepted_summary(const nlohmann::json& doc) {
  const ResultsFile results = parse_results(doc, "imported.json");
  return results.points.at(0).repetitions.at(0).summary;
}

}  // namespace infergate::testing
