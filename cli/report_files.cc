#include "cli/report_files.h"

#include <filesystem>

#include "common/io/json_file.h"
#include "gates/report/html_report.h"
#include "gates/report/junit_report.h"
#include "gates/report/markdown_report.h"
#include "gates/report/verdicts_json.h"

namespace infergate {

namespace {

std::vector<std::string> report_paths(const std::string& dir) {
  const std::filesystem::path root(dir);
  return {(root / "verdicts.json").string(), (root / "report.html").string(),
          (root / "summary.md").string(), (root / "junit.xml").string()};
}

}  // namespace

void check_report_files_writable(const std::string& dir) {
  for (const std::string& path : report_paths(dir)) check_writable(path);
}

std::vector<std::string> write_report_files(const std::string& dir, const Comparison& comparison,
                                            const ResultsFile& baseline,
                                            const ResultsFile& candidate) {
  const std::vector<std::string> written = report_paths(dir);
  write_json_atomically(comparison_to_json(comparison), written[0]);
  write_text_atomically(html_report(comparison, baseline, candidate), written[1]);
  write_text_atomically(markdown_report(comparison), written[2]);
  write_text_atomically(junit_report(comparison), written[3]);
  return written;
}

}  // namespace infergate
