// What a bisect found, as data first (bisect.json, schema "infergate.bisect/v1") and rendered
// from it: Markdown (bisect.md) and the console table (docs/bisect.md). Every tested commit, the
// ends included, in topological order, with the metric there and its change against the good end.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/results/metric_key.h"
#include "gates/bisect/bisect_settings.h"
#include "gates/bisect/tested_commit.h"

namespace infergate {

inline constexpr const char* kBisectSchema = "infergate.bisect/v1";

enum class BisectStatus {
  kFound,            // a first bad commit was found
  kEndsDoNotDiffer,  // the bad end is not a regression against the good end: nothing to find
  kOnlySkippedLeft,  // skipped commits hide it: it is one of several candidates
};

const char* to_string(BisectStatus s);  // "found", "ends-do-not-differ", "only-skipped-left"
// 0 found, 1 only skipped commits left, 3 the ends do not differ (2 is a usage or input error).
int bisect_exit_code(BisectStatus s);

struct BisectReport {
  BisectSettings settings;
  BisectStatus status = BisectStatus::kFound;
  std::string message;                  // the conclusion in one line
  std::string first_bad;                // full hash, when found
  std::vector<std::string> candidates;  // when only skipped commits were left
  std::vector<TestedCommit> commits;    // ends included, parents before children
  std::string git_bisect_log;           // empty when git bisect did not run
  std::string command;                  // the command line that started the bisect
  std::string created_at;               // UTC, ISO 8601
};

nlohmann::json bisect_report_json(const BisectReport& r);
std::string bisect_report_markdown(const BisectReport& r);
// The conclusion, then one aligned row per tested commit: for the terminal.
std::string bisect_report_text(const BisectReport& r);
// One commit in one line: "a9f8446817 bad: 9.63 ms, +255% [+240%, +270%] vs good, p <0.001
// (4 repetitions): <subject>", or why it was skipped.
std::string tested_commit_line(const TestedCommit& t, const MetricKey& key);

}  // namespace infergate
