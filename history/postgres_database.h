// The history over PostgreSQL, for a team sharing one history (docs/history.md): a libpq
// connection from a postgresql:// URL. Writers serialize on a transaction-scoped advisory lock,
// as SQLite's writers do on its file lock.
#pragma once

#include <memory>
#include <string>

#include "history/sql_database.h"

struct pg_conn;

namespace infergate {

class PostgresDatabase : public SqlDatabase {
 public:
  explicit PostgresDatabase(const std::string& url);
  ~PostgresDatabase() override;
  PostgresDatabase(const PostgresDatabase&) = delete;
  PostgresDatabase& operator=(const PostgresDatabase&) = delete;

  SqlDialect dialect() const override { return SqlDialect::kPostgres; }
  const std::string& path() const override { return name_; }
  void exec(const std::string& sql) override;
  std::unique_ptr<SqlStatement> prepare(const std::string& sql) override;
  void begin_write() override;

  pg_conn* handle() const { return conn_; }
  // "history database URL: what: the server's message"
  [[noreturn]] void fail(const std::string& what) const;

 private:
  std::string name_;  // the URL without its password
  pg_conn* conn_ = nullptr;
};

// `sql` with its `?` placeholders numbered as PostgreSQL wants them ($1, $2, ...); a `?`
// inside a quoted literal or identifier is left alone.
std::string postgres_placeholders(const std::string& sql);
// The URL with any password replaced by "***", for messages.
std::string without_password(const std::string& url);

}  // namespace infergate
