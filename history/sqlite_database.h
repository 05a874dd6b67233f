// A SQLite connection and its prepared statements, with every failure a HistoryError naming
// the database file: the thin layer the history store talks SQL through.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace infergate {

class HistoryError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class SqliteDatabase {
 public:
  // Opens (creating) `path` in WAL mode, with foreign keys on and a busy timeout so concurrent
  // writers wait for each other instead of failing.
  explicit SqliteDatabase(const std::string& path);
  ~SqliteDatabase();
  SqliteDatabase(const SqliteDatabase&) = delete;
  SqliteDatabase& operator=(const SqliteDatabase&) = delete;

  void exec(const std::string& sql);
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }
  int64_t last_insert_id() const;
  // Throws HistoryError with the database's message unless `rc` is one of the `ok` codes.
  void check(int rc, const std::string& what) const;

 private:
  std::string path_;
  sqlite3* db_ = nullptr;
};

// One prepared statement; bind parameters from 1, columns from 0.
class SqliteStatement {
 public:
  SqliteStatement(const SqliteDatabase& db, const std::string& sql);
  ~SqliteStatement();
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqliteStatement& bind(int index, int64_t value);
  SqliteStatement& bind(int index, double value);
  SqliteStatement& bind(int index, const std::string& value);
  SqliteStatement& bind_blob(int index, const std::vector<unsigned char>& value);
  // Steps once: true while a row is there to read.
  bool step();
  // Steps to the end (statements without rows).
  void run();
  void reset();

  int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  std::vector<unsigned char> blob(int column) const;
  bool is_null(int column) const;

 private:
  const SqliteDatabase& db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

// BEGIN IMMEDIATE (the write lock now, so two writers never deadlock upgrading) ... COMMIT;
// rolled back unless commit() was called.
class SqliteTransaction {
 public:
  explicit SqliteTransaction(SqliteDatabase& db);
  ~SqliteTransaction();
  void commit();

 private:
  SqliteDatabase& db_;
  bool done_ = false;
};

}  // namespace infergate
