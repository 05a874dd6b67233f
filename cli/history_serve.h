// `infergate history serve`: the trends dashboard served live on loopback (docs/history.md,
// "Dashboard"): the same pages as `history dashboard`, read from the database at each request,
// and each run's report rendered when asked for.
#pragma once

#include <cstdint>
#include <string>

#include "history/dashboard_site.h"
#include "history/history_store.h"

namespace infergate {

// Serves until SIGINT or SIGTERM. Detection (when settings.detect) runs once, at start.
int history_serve(HistoryStore& store, const DashboardSettings& settings, const std::string& host,
                  uint16_t port);

}  // namespace infergate
