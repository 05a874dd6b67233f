#include "history/sqlite_database.h"

#include <sqlite3.h>

#include <chrono>
#include <filesystem>
#include <thread>

namespace infergate {

namespace {

constexpr int kBusyTimeoutMs = 30'000;

// One prepared statement.
class SqliteStatement : public SqlStatement {
 public:
  SqliteStatement(const SqliteDatabase& db, const std::string& sql);
  ~SqliteStatement() override;
  SqliteStatement(const SqliteStatement&) = delete;
  SqliteStatement& operator=(const SqliteStatement&) = delete;

  SqlStatement& bind(int index, int64_t value) override;
  SqlStatement& bind(int index, double value) override;
  SqlStatement& bind(int index, const std::string& value) override;
  SqlStatement& bind_blob(int index, const std::vector<unsigned char>& value) override;
  bool step() override;
  void reset() override;
  int64_t int64(int column) const override;
  double real(int column) const override;
  std::string text(int column) const override;
  std::vector<unsigned char> blob(int column) const override;

 private:
  const SqliteDatabase& db_;
  sqlite3_stmt* stmt_ = nullptr;
  std::string sql_;
};

SqliteStatement::SqliteStatement(const SqliteDatabase& db, const std::string& sql)
    : db_(db), sql_(sql) {
  db_.check(sqlite3_prepare_v2(db.handle(), sql.c_str(), -1, &stmt_, nullptr),
            "preparing " + sql.substr(0, 80));
}

SqliteStatement::~SqliteStatement() { sqlite3_finalize(stmt_); }

SqlStatement& SqliteStatement::bind(int index, int64_t value) {
  db_.check(sqlite3_bind_int64(stmt_, index, value), "binding");
  return *this;
}

SqlStatement& SqliteStatement::bind(int index, double value) {
  db_.check(sqlite3_bind_double(stmt_, index, value), "binding");
  return *this;
}

SqlStatement& SqliteStatement::bind(int index, const std::string& value) {
  db_.check(sqlite3_bind_text(stmt_, index, value.data(), int(value.size()), SQLITE_TRANSIENT),
            "binding");
  return *this;
}

SqlStatement& SqliteStatement::bind_blob(int index, const std::vector<unsigned char>& value) {
  if (value.empty()) {  // a null pointer would bind NULL, not an empty blob
    db_.check(sqlite3_bind_zeroblob(stmt_, index, 0), "binding");
    return *this;
  }
  db_.check(sqlite3_bind_blob64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT),
            "binding");
  return *this;
}

bool SqliteStatement::step() {
  const int rc = sqlite3_step(stmt_);
  db_.check(rc, "running " + sql_.substr(0, 80));
  return rc == SQLITE_ROW;
}

void SqliteStatement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int64_t SqliteStatement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double SqliteStatement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::string SqliteStatement::text(int column) const {
  const auto* p = sqlite3_column_text(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p),
                         size_t(sqlite3_column_bytes(stmt_, column)))
           : std::string();
}

std::vector<unsigned char> SqliteStatement::blob(int column) const {
  const auto* p = static_cast<const unsigned char*>(sqlite3_column_blob(stmt_, column));
  return p ? std::vector<unsigned char>(p, p + sqlite3_column_bytes(stmt_, column))
           : std::vector<unsigned char>();
}

}  // namespace

namespace {

// `history add` into results/history.sqlite of a fresh checkout: the folder is made, as
// `baseline update` makes its store's.
void create_parent_folder(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (parent.empty() || std::filesystem::is_directory(parent, ec)) return;
  std::filesystem::create_directories(parent, ec);
  if (ec) {
    throw HistoryError("history database " + path + ": cannot create its folder " +
                       parent.string() + ": " + ec.message());
  }
}

}  // namespace

SqliteDatabase::SqliteDatabase(const std::string& path) : path_(path) {
  create_parent_folder(path);
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_,
                      SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nullptr);
  if (rc != SQLITE_OK) {
    const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close(db_);
    db_ = nullptr;
    throw HistoryError("history database " + path + ": cannot open: " + message);
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  // Switching a new database to WAL takes an exclusive lock that SQLite does not wait for
  // through the busy handler: two processes creating it at once retry here.
  for (int waited_ms = 0;; waited_ms += 10) {
    const int wal = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    if (wal == SQLITE_OK) break;
    if ((wal != SQLITE_BUSY && wal != SQLITE_LOCKED) || waited_ms >= kBusyTimeoutMs) {
      const std::string message = sqlite3_errmsg(db_);
      sqlite3_close(db_);
      db_ = nullptr;
      throw HistoryError("history database " + path + ": cannot open: " + message);
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  exec("PRAGMA foreign_keys=ON");
  exec("PRAGMA synchronous=NORMAL");  // WAL: durable at checkpoints, never corrupt
}

SqliteDatabase::~SqliteDatabase() { sqlite3_close(db_); }

void SqliteDatabase::check(int rc, const std::string& what) const {
  if (rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE) return;
  throw HistoryError("history database " + path_ + ": " + what + ": " + sqlite3_errmsg(db_));
}

std::unique_ptr<SqlStatement> SqliteDatabase::prepare(const std::string& sql) {
  return std::make_unique<SqliteStatement>(*this, sql);
}

void SqliteDatabase::exec(const std::string& sql) {
  char* error = nullptr;
  const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
  if (rc != SQLITE_OK) {
    const std::string message = error ? error : sqlite3_errstr(rc);
    sqlite3_free(error);
    throw HistoryError("history database " + path_ + ": " + message + " (in: " + sql.substr(0, 80) +
                       ")");
  }
}

}  // namespace infergate
