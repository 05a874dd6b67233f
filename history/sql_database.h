// The SQL the history speaks, over either engine (docs/history.md): SQLite, one file beside the
// baselines, or PostgreSQL for a team, chosen by the location given (a path or a
// postgresql:// URL). Statements use `?` placeholders, numbered from 1; columns from 0. Every
// failure is a HistoryError naming the database.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace infergate {

class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class SqlDialect { kSqlite, kPostgres };

class SqlStatement {
 public:
  virtual ~SqlStatement() = default;
  virtual SqlStatement& bind(int index, int64_t value) = 0;
  virtual SqlStatement& bind(int index, double value) = 0;
  virtual SqlStatement& bind(int index, const std::string& value) = 0;
  virtual SqlStatement& bind_blob(int index, const std::vector<unsigned char>& value) = 0;
  // Runs the statement on the first call; true while a row is there to read.
  virtual bool step() = 0;
  // Steps to the end (statements without rows).
  void run() {
    while (step()) {
    }
  }
  // Ready to run again, with new bindings.
  virtual void reset() = 0;

  virtual int64_t int64(int column) const = 0;
  virtual double real(int column) const = 0;
  virtual std::string text(int column) const = 0;
  virtual std::vector<unsigned char> blob(int column) const = 0;
};

class SqlDatabase {
 public:
  virtual ~SqlDatabase() = default;
  virtual SqlDialect dialect() const = 0;
  // The database as messages name it: the file, or the URL without its password.
  virtual const std::string& path() const = 0;
  // One or more statements without parameters or rows.
  virtual void exec(const std::string& sql) = 0;
  virtual std::unique_ptr<SqlStatement> prepare(const std::string& sql) = 0;
  // BEGIN, holding the database's write lock from now on, so two writers queue instead of
  // failing or deadlocking half-way (SQLite: BEGIN IMMEDIATE; PostgreSQL: an advisory lock).
  virtual void begin_write() = 0;
};

// A write transaction: rolled back unless commit() was called.
class SqlTransaction {
 public:
  explicit SqlTransaction(SqlDatabase& db);
  ~SqlTransaction();
  SqlTransaction(const SqlTransaction&) = delete;
  SqlTransaction& operator=(const SqlTransaction&) = delete;
  void commit();

 private:
  SqlDatabase& db_;
  bool done_ = false;
};

// postgresql:// and postgres:// URLs (libpq's connection URIs) open PostgreSQL; anything else
// is a SQLite file, created when missing.
bool is_postgres_url(const std::string& location);
std::unique_ptr<SqlDatabase> open_sql_database(const std::string& location);

}  // namespace infergate
