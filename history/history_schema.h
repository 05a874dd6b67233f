// The history database's schema, versioned: each migration takes it one version up, and a
// database is migrated, inside one transaction, when opened (docs/history.md). A database from
// a newer infergate is refused rather than misread.
#pragma once

#include "history/sql_database.h"

namespace infergate {

inline constexpr int kHistorySchemaVersion = 2;

// The database's schema version (0: no tables at all). Throws HistoryError for a database
// with tables but without our marker (meta.schema_version): another application's, never
// written to; and for a marker that is not a version number.
int history_schema_version(SqlDatabase& db);
// Migrates `db` to kHistorySchemaVersion; throws HistoryError for a newer one.
void migrate_history_schema(SqlDatabase& db);

}  // namespace infergate
