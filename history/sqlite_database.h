// The history over SQLite: one file, WAL mode, foreign keys on, and a busy timeout so that
// concurrent writers wait for each other instead of failing (docs/history.md).
#pragma once

#include <memory>
#include <string>

#include "history/sql_database.h"

struct sqlite3;

namespace infergate {

class SqliteDatabase : public SqlDatabase {
 public:
  // Opens (creating) `path`.
  explicit SqliteDatabase(const std::string& path);
  ~SqliteDatabase() override;
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kSqlite; }
  const std::string& path() const override { return path_; }
  void exec(const std::string& sql) override;
  std::unique_ptr<SqlStatement> prepare(const std::string& sql) override;
  void begin_write() override { exec("BEGIN IMMEDIATE"); }

  // Throws HistoryError with the database's message unless `rc` is a success code.
  void check(int rc, const std::string& what) const;
  sqlite3* handle() const { return db_; }

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

}  // namespace infergate
