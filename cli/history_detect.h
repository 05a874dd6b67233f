// `infergate history detect`: change points in every stored series the filter admits, recorded
// in the history and written as text, JSON (infergate.change_points/v1) or Markdown
// (docs/history.md).
#pragma once

#include <string>

#include "history/change_point_detection.h"
#include "history/history_store.h"

namespace infergate {

struct DetectRequest {
  SeriesFilter filter;
  DetectSettings settings;
  bool newest_only = false;  // only what the newest commit completes; exit 6 when worse
  std::string format = "text";
  std::string out;  // "" for stdout
};

int history_detect(HistoryStore& store, const DetectRequest& request);

}  // namespace infergate
