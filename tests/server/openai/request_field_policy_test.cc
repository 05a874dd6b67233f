#include "server/openai/request_field_policy.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <set>
#include <sstream>

#include "common/openai/openai_error.h"

namespace infergate {
namespace {

// docs/server.md's "Request fields" table, one string per row: "name|route|support|notes".
std::vector<std::string> documented_rows() {
  std::ifstream in(std::string(INFERGATE_SOURCE_DIR) + "/docs/server.md");
  REQUIRE(in);
  std::vector<std::string> rows;
  std::string line;
  bool in_section = false;
  while (std::getline(in, line)) {
    if (in_section && line.rfind("#", 0) == 0) break;  // the next section
    if (line.rfind("### Request fields", 0) == 0) in_section = true;
    if (!in_section || line.rfind("| `", 0) != 0) continue;  // not a table row
    std::vector<std::string> cells;
    std::stringstream cells_in(line.substr(1));  // each cell ends with its '|'
    for (std::string cell; std::getline(cells_in, cell, '|');) {
      const size_t first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      cells.push_back(first == std::string::npos ? "" : cell.substr(first, last - first + 1));
    }
    REQUIRE(cells.size() == 4u);
    rows.push_back(cells[0].substr(1, cells[0].size() - 2) + "|" + cells[1] + "|" + cells[2] + "|" +
                   cells[3]);
  }
  return rows;
}

std::string policy_row(const RequestFieldPolicy& p) {
  const char* route = p.scope == FieldScope::kBoth          ? "both"
                      : p.scope == FieldScope::kCompletions ? "completions"
                                                            : "chat";
  const char* support = p.support == FieldSupport::kSupported ? "supported"
                        : p.support == FieldSupport::kIgnored ? "ignored"
                                                              : "refused";
  return std::string(p.name) + "|" + route + "|" + support + "|" + std::string(p.note);
}

TEST_CASE("request fields: docs/server.md's table is the policy list") {
  std::vector<std::string> expected;
  for (const RequestFieldPolicy& p : request_field_policies()) expected.push_back(policy_row(p));
  CHECK(documented_rows() == expected);
}

TEST_CASE("request fields: each is listed once per route") {
  std::set<std::pair<std::string_view, bool>> seen;  // (name, is chat)
  for (const RequestFieldPolicy& p : request_field_policies()) {
    INFO(p.name);
    if (p.scope != FieldScope::kChat) CHECK(seen.insert({p.name, false}).second);
    if (p.scope != FieldScope::kCompletions) CHECK(seen.insert({p.name, true}).second);
    if (p.support == FieldSupport::kRefused) CHECK_FALSE(p.note.empty());
  }
}

TEST_CASE("request fields: refused unless null, ignored accepted, unknown refused") {
  using nlohmann::json;
  CHECK_NOTHROW(check_request_fields(json{{"user", "u"}, {"best_of", nullptr}}, ApiKind::kChat));
  CHECK_THROWS_WITH(check_request_fields(json{{"best_of", 2}}, ApiKind::kCompletions),
                    Catch::Contains("use n"));
  CHECK_THROWS_WITH(check_request_fields(json{{"functions", json::array()}}, ApiKind::kChat),
                    Catch::Contains("use tools and tool_choice"));
  CHECK_THROWS_WITH(check_request_fields(json{{"echo", true}}, ApiKind::kChat),
                    Catch::Contains("unknown field 'echo'"));
}

}  // namespace
}  // namespace infergate
