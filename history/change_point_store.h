// The change points history detect found, kept in the history database (schema version 2) so
// that history bisect can name one by id and record the commit it found (docs/history.md).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "history/change_point_detection.h"
#include "history/history_store.h"

namespace infergate {

class ChangePointStore {
 public:
  explicit ChangePointStore(const HistoryStore& store) : db_(store.database()) {}

  // Records one series' detection in one transaction: a change point already stored (the same
  // series and first changed commit) keeps its id and found commit and takes the new figures;
  // a stored one no longer detected is removed. Sets each change point's id and found commit.
  void record(const SeriesKey& series, std::vector<ChangePoint>& detected);
  // Every stored change point, newest first changed commit first.
  std::vector<ChangePoint> all() const;
  std::optional<ChangePoint> find(int64_t id) const;
  // Throws HistoryError when there is no change point `id`.
  void set_found_commit(int64_t id, const std::string& commit);

 private:
  SqlDatabase& db_;
};

}  // namespace infergate
