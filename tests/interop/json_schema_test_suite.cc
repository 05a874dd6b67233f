// Runs the official JSON-Schema-Test-Suite (Debian's json-schema-test-suite) through
// JsonSchemaValidator: every case of every *.json file of one draft's folder (not optional/) must
// be judged valid or invalid as the suite says. Prints one line per disagreement and a summary.
//
//   json_schema_test_suite SUITE_TESTS_DIR   (e.g. /usr/share/json-schema-test-suite/tests/draft7)
//
// A group whose schema the validator refuses is printed and counted as refused: allowed where
// the refusal names something unsupported (a remote $ref, an unsupported keyword), a failure
// otherwise. Files that need the suite's remote documents (a web server) are skipped, and said so.
// Exit status: 0 when every case agrees, 1 otherwise, 77 when the folder is missing.
#include <algorithm>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_schema/json_schema_validator.h"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::json;

// Files whose cases fetch documents from http://localhost:1234 (the suite's remotes/ folder
// served over HTTP); the validator resolves no remote $ref.
const std::map<std::string, std::string> kSkippedFiles = {
    {"refRemote.json", "needs the suite's remote documents (http://localhost:1234/...)"},
};

// The suite's schemas rarely say their draft; its folder does. Draft 7 and older differ from
// 2019-09 on in $ref: it replaces its sibling keywords there.
std::string dialect_of(const fs::path& folder) {
  const std::map<std::string, std::string> dialects = {
      {"draft3", "http://json-schema.org/draft-03/schema#"},
      {"draft4", "http://json-schema.org/draft-04/schema#"},
      {"draft6", "http://json-schema.org/draft-06/schema#"},
      {"draft7", "http://json-schema.org/draft-07/schema#"},
  };
  const auto found = dialects.find(folder.filename().string());
  return found == dialects.end() ? "" : found->second;
}

Json read_json(const fs::path& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path.string());
  std::stringstream text;
  text << file.rdbuf();
  return Json::parse(text.str());
}

struct Tally {
  int files = 0;
  int groups = 0;
  int cases = 0;
  int agreed = 0;
  int disagreed = 0;
  int refused_groups = 0;
  int refused_cases = 0;
  int failed_groups = 0;  // refused for something other than an unsupported feature
};

bool names_unsupported(const std::string& refusal) {
  return refusal.find("unsupported") != std::string::npos;
}

void run_case(const std::string& where, const infergate::JsonSchemaValidator& validator,
              const Json& test, Tally& tally) {
  ++tally.cases;
  const std::string description = test.value("description", "");
  const bool expected = test.at("valid").get<bool>();
  const std::string problem = validator.problem(test.at("data"));
  if (problem.empty() == expected) {
    ++tally.agreed;
    return;
  }
  ++tally.disagreed;
  std::cout << "DISAGREE " << where << " / " << description << ": the suite says "
            << (expected ? "valid" : "invalid") << ", the validator says "
            << (problem.empty() ? "valid" : "invalid (" + problem + ")") << "\n";
}

void run_group(const std::string& file, const Json& group, const std::string& dialect,
               Tally& tally) {
  ++tally.groups;
  const std::string where = file + ": " + group.value("description", "");
  Json schema = group.at("schema");
  if (!dialect.empty() && schema.is_object() && !schema.contains("$schema")) {
    schema["$schema"] = dialect;
  }
  try {
    const infergate::JsonSchemaValidator validator(schema);
    for (const Json& test : group.at("tests")) run_case(where, validator, test, tally);
  } catch (const infergate::JsonSchemaError& refusal) {
    const auto cases = static_cast<int>(group.at("tests").size());
    tally.cases += cases;
    if (names_unsupported(refusal.what())) {
      ++tally.refused_groups;
      tally.refused_cases += cases;
      std::cout << "refused  " << where << ": " << refusal.what() << "\n";
    } else {
      ++tally.failed_groups;
      tally.disagreed += cases;
      std::cout << "FAILED   " << where << ": refused a supported schema: " << refusal.what()
                << "\n";
    }
  }
}

std::vector<fs::path> suite_files(const fs::path& folder) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.is_regular_file() && entry.path().extension() == ".json") {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

void print_summary(const Tally& tally, int skipped_files) {
  std::cout << "summary: " << tally.files << " files (" << skipped_files << " skipped), "
            << tally.groups << " groups, " << tally.cases << " cases: " << tally.agreed
            << " agreed, " << tally.disagreed << " disagreed; " << tally.refused_groups
            << " groups refused as unsupported (" << tally.refused_cases << " cases), "
            << tally.failed_groups << " supported groups refused\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: json_schema_test_suite SUITE_TESTS_DIR\n";
    return 2;
  }
  const fs::path folder = argv[1];
  if (!fs::is_directory(folder)) {
    std::cout << "skipped: no JSON-Schema-Test-Suite folder at " << folder.string()
              << " (Debian package json-schema-test-suite)\n";
    return 77;
  }
  const std::string dialect = dialect_of(folder);
  if (!dialect.empty()) std::cout << "dialect: " << dialect << " (from the folder's name)\n";
  Tally tally;
  int skipped_files = 0;
  try {
    for (const fs::path& path : suite_files(folder)) {
      const std::string file = path.filename().string();
      if (const auto skip = kSkippedFiles.find(file); skip != kSkippedFiles.end()) {
        std::cout << "skipped  " << file << ": " << skip->second << "\n";
        ++skipped_files;
        continue;
      }
      ++tally.files;
      for (const Json& group : read_json(path)) run_group(file, group, dialect, tally);
    }
  } catch (const std::exception& error) {
    std::cout << "error: " << error.what() << "\n";
    return 1;
  }
  print_summary(tally, skipped_files);
  return tally.disagreed == 0 && tally.failed_groups == 0 ? 0 : 1;
}
