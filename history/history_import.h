// `history import`: every results file under folders of results (out/, a baseline store's
// results/ with its replaced baselines in history/), each added as `history add` adds it;
// other JSON (workloads, noise calibrations, verdicts) is passed over (docs/history.md).
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "history/history_store.h"

namespace infergate {

struct ImportReport {
  int added = 0, already_stored = 0, not_results = 0;
  std::vector<std::pair<std::string, std::string>> refused;   // file, why
  std::vector<std::pair<std::string, std::string>> not_json;  // *.json that do not parse; why
  bool stopped = false;  // `stop` said so before every file was looked at
};

// Walks each path (a file or a folder, recursively, in name order; links are not followed) and
// adds every *.json whose "schema" is a results file's. A results file that fails the reader's
// checks is refused with its reason and the rest still imported.
// A *.json that is not JSON at all (a stray binary, a truncated copy) is listed in not_json,
// not counted with the other JSON. `stop`, when given, is asked before each file.
ImportReport import_results(HistoryStore& store, const std::vector<std::string>& paths,
                            const std::function<bool()>& stop = {});

}  // namespace infergate
