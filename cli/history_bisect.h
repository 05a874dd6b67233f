// `infergate history bisect CHANGE_POINT [-- BISECT OPTIONS]`: hands a recorded change point's
// commit range to `infergate bisect` (docs/bisect.md) and records the commit it finds on the
// change point (docs/history.md, "Bisecting a change point").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "history/history_store.h"

namespace infergate {

// `bisect_args` are passed to bisect after the ones made from the change point; they may name
// --workload (default: the stored run's own workload), --out-dir, --repo, --repeat, ... Returns
// bisect's exit code.
int history_bisect(HistoryStore& store, int64_t change_point,
                   const std::vector<std::string>& bisect_args);

}  // namespace infergate
