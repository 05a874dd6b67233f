#include "history/postgres_database.h"

#include <libpq-fe.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace infergate {

namespace {

// Every history writer takes this lock (any number, the same everywhere) until it commits.
constexpr int64_t kWriterLock = 0x696e66657267;  // "inferg"

using ResultPtr = std::unique_ptr<PGresult, decltype(&PQclear)>;

// A statement run with PQexecParams when first stepped: parameters as text (blobs binary),
// results as text (bytea as libpq's hex escape).
class PostgresStatement : public SqlStatement {
 public:
  PostgresStatement(const PostgresDatabase& db, const std::string& sql)
      : db_(db), sql_(postgres_placeholders(sql)) {}

  SqlStatement& bind(int index, int64_t value) override {
    return set(index, std::to_string(value), false);
  }
  SqlStatement& bind(int index, double value) override {
    if (std::isnan(value)) return set(index, "NaN", false);
    if (std::isinf(value)) return set(index, value > 0 ? "Infinity" : "-Infinity", false);
    char text[32];
    std::snprintf(text, sizeof(text), "%.17g", value);
    return set(index, text, false);
  }
  SqlStatement& bind(int index, const std::string& value) override {
    return set(index, value, false);
  }
  SqlStatement& bind_blob(int index, const std::vector<unsigned char>& value) override {
    return set(index, std::string(value.begin(), value.end()), true);
  }

  bool step() override {
    if (!result_) execute();
    return ++row_ < PQntuples(result_.get());
  }
  void reset() override {
    result_.reset();
    row_ = -1;
    values_.clear();
    binary_.clear();
  }

  int64_t int64(int column) const override { return std::strtoll(cell(column), nullptr, 10); }
  double real(int column) const override { return std::strtod(cell(column), nullptr); }
  std::string text(int column) const override {
    return std::string(cell(column), size_t(PQgetlength(result_.get(), row_, column)));
  }
  std::vector<unsigned char> blob(int column) const override {
    size_t size = 0;
    unsigned char* raw =
        PQunescapeBytea(reinterpret_cast<const unsigned char*>(cell(column)), &size);
    if (raw == nullptr) db_.fail("reading a blob");
    std::vector<unsigned char> out(raw, raw + size);
    PQfreemem(raw);
    return out;
  }

 private:
  SqlStatement& set(int index, std::string value, bool binary) {
    if (index < 1) db_.fail("binding parameter " + std::to_string(index));
    if (values_.size() < size_t(index)) {
      values_.resize(size_t(index));
      binary_.resize(size_t(index), false);
    }
    values_[size_t(index - 1)] = std::move(value);
    binary_[size_t(index - 1)] = binary;
    return *this;
  }

  void execute() {
    std::vector<const char*> values;
    std::vector<int> lengths, formats;
    for (size_t i = 0; i < values_.size(); ++i) {
      values.push_back(values_[i].data());
      lengths.push_back(int(values_[i].size()));
      formats.push_back(binary_[i] ? 1 : 0);
    }
    result_.reset(PQexecParams(db_.handle(), sql_.c_str(), int(values.size()), nullptr,
                               values.data(), lengths.data(), formats.data(), 0));
    const ExecStatusType status = PQresultStatus(result_.get());
    if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) {
      db_.fail("running " + sql_.substr(0, 80));
    }
    row_ = -1;
  }

  const char* cell(int column) const { return PQgetvalue(result_.get(), row_, column); }

  const PostgresDatabase& db_;
  std::string sql_;
  std::vector<std::string> values_;
  std::vector<bool> binary_;
  ResultPtr result_{nullptr, &PQclear};
  int row_ = -1;
};

}  // namespace

std::string postgres_placeholders(const std::string& sql) {
  std::string out;
  int next = 1;
  char quote = 0;
  for (char c : sql) {
    if (quote != 0) {
      if (c == quote) quote = 0;  // a doubled quote closes and reopens: the same text
      out += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      out += c;
    } else if (c == '?') {
      out += "$" + std::to_string(next++);
    } else {
      out += c;
    }
  }
  return out;
}

std::string without_password(const std::string& url) {
  const size_t scheme = url.find("://");
  if (scheme == std::string::npos) return url;
  const size_t at = url.find('@', scheme + 3);
  const size_t colon = url.find(':', scheme + 3);
  if (at == std::string::npos || colon == std::string::npos || colon > at) return url;
  return url.substr(0, colon + 1) + "***" + url.substr(at);
}

PostgresDatabase::PostgresDatabase(const std::string& url)
    : name_(without_password(url)), conn_(PQconnectdb(url.c_str())) {
  if (conn_ == nullptr) throw HistoryError("history database " + name_ + ": out of memory");
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string message = PQerrorMessage(conn_);
    PQfinish(conn_);
    conn_ = nullptr;
    throw HistoryError("history database " + name_ + ": cannot connect: " + message);
  }
  exec("SET client_min_messages = warning");  // no NOTICEs on stderr
}

PostgresDatabase::~PostgresDatabase() { PQfinish(conn_); }

void PostgresDatabase::fail(const std::string& what) const {
  std::string message = PQerrorMessage(conn_);
  while (!message.empty() && (message.back() == '\n' || message.back() == ' ')) message.pop_back();
  throw HistoryError("history database " + name_ + ": " + what + ": " + message);
}

void PostgresDatabase::exec(const std::string& sql) {
  const ResultPtr r(PQexec(conn_, sql.c_str()), &PQclear);
  const ExecStatusType status = PQresultStatus(r.get());
  if (status != PGRES_COMMAND_OK && status != PGRES_TUPLES_OK) fail("in: " + sql.substr(0, 80));
}

std::unique_ptr<SqlStatement> PostgresDatabase::prepare(const std::string& sql) {
  return std::make_unique<PostgresStatement>(*this, sql);
}

void PostgresDatabase::begin_write() {
  exec("BEGIN");
  exec("SELECT pg_advisory_xact_lock(" + std::to_string(kWriterLock) + ")");
}

}  // namespace infergate
