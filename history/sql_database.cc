#include "history/sql_database.h"

#include "history/postgres_database.h"
#include "history/sqlite_database.h"

namespace infergate {

SqlTransaction::SqlTransaction(SqlDatabase& db) : db_(db) { db_.begin_write(); }

SqlTransaction::~SqlTransaction() {
  if (done_) return;
  try {
    db_.exec("ROLLBACK");
  } catch (const HistoryError&) {  // the connection is going away; the server rolls back
  }
}

void SqlTransaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

bool is_postgres_url(const std::string& location) {
  return location.rfind("postgresql://", 0) == 0 || location.rfind("postgres://", 0) == 0;
}

std::unique_ptr<SqlDatabase> open_sql_database(const std::string& location) {
  if (is_postgres_url(location)) return std::make_unique<PostgresDatabase>(location);
  return std::make_unique<SqliteDatabase>(location);
}

}  // namespace infergate
