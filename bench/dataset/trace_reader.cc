#include "bench/dataset/trace_reader.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string_view>

#include "bench/dataset/bounded_line.h"
#include "bench/dataset/dataset_error.h"
#include "bench/dataset/record_json.h"
#include "bench/workload/workload_limits.h"
#include "common/io/json_excerpt.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr size_t kMaxTraceLineBytes = size_t(1) << 20;  // a record; Mooncake's longest ~10 KB

struct At {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& problem) const {
    throw DatasetError(file, line, problem);
  }
};

std::string_view trim(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r\"");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\r\"") - b + 1);
}

int tokens_in(int64_t v, const std::string& field, const At& at) {
  if (v < 0 || v > kMaxRequestTokens) {
    at.fail(field + " = " + std::to_string(v) + " must be in [0, " +
            std::to_string(kMaxRequestTokens) + "] (tokens)");
  }
  return int(v);
}

int64_t integer_cell(std::string_view cell, const std::string& field, const At& at) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (ec != std::errc() || end != cell.data() + cell.size()) {
    at.fail(field + " = \"" + std::string(cell.substr(0, 40)) + "\" is not an integer");
  }
  return v;
}

double number_cell(std::string_view cell, const std::string& field, const At& at) {
  double v = 0;
  const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
  if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v)) {
    at.fail(field + " = \"" + std::string(cell.substr(0, 40)) + "\" is not a number");
  }
  return v;
}

// The longest trace in the unit its timestamps are given in (1: seconds, 1000: milliseconds).
std::string max_trace_text(int64_t per_second) {
  return std::to_string(int64_t(kMaxTraceSeconds) * per_second);
}

// BurstGPT's Timestamp: seconds from the trace's start.
double burstgpt_timestamp(std::string_view cell, const At& at) {
  const double v = number_cell(cell, "Timestamp", at);
  if (!(v >= 0 && v <= kMaxTraceSeconds)) {
    at.fail("Timestamp = " + std::string(cell.substr(0, 40)) + " must be in [0, " +
            max_trace_text(1) + "] (seconds from the trace's start, at most 365 days)");
  }
  return v;
}

// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
int64_t days_from_civil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

int64_t days_in_month(int64_t y, int64_t m) {
  if (m == 2) return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 ? 29 : 28;
  return m == 4 || m == 6 || m == 9 || m == 11 ? 30 : 31;
}

// "YYYY-MM-DD HH:MM:SS[.fraction]" (the Azure traces' TIMESTAMP) as seconds since the epoch.
double azure_timestamp(std::string_view s, const At& at) {
  const auto bad = [&] {
    at.fail("TIMESTAMP = \"" + std::string(s.substr(0, 40)) +
            "\" is not a date and time \"YYYY-MM-DD HH:MM:SS.fraction\"");
  };
  if (s.size() < 19 || s[4] != '-' || s[7] != '-' || (s[10] != ' ' && s[10] != 'T') ||
      s[13] != ':' || s[16] != ':') {
    bad();
  }
  const auto part = [&](size_t from, size_t len, int64_t lo, int64_t hi) {
    int64_t v = 0;
    const auto [end, ec] = std::from_chars(s.data() + from, s.data() + from + len, v);
    if (ec != std::errc() || end != s.data() + from + len || v < lo || v > hi) bad();
    return v;
  };
  // Any year a four-digit date can write: a trace from before 1970 is as well formed as any.
  const int64_t year = part(0, 4, 1, 9999), month = part(5, 2, 1, 12);
  const int64_t days = days_from_civil(year, month, part(8, 2, 1, days_in_month(year, month)));
  double seconds = double(days) * 86400 + double(part(11, 2, 0, 23)) * 3600 +
                   double(part(14, 2, 0, 59)) * 60 + double(part(17, 2, 0, 60));
  if (s.size() > 19) {
    if (s[19] != '.') bad();
    const std::string_view digits = s.substr(20);
    if (digits.empty() || digits.size() > 9) bad();
    seconds += double(part(20, digits.size(), 0, 999'999'999)) / std::pow(10.0, digits.size());
  }
  return seconds;
}

std::vector<std::string_view> split_csv(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t from = 0;
  for (;;) {
    const size_t comma = line.find(',', from);
    cells.push_back(trim(line.substr(from, comma - from)));
    if (comma == std::string_view::npos) return cells;
    from = comma + 1;
  }
}

// The CSV formats: a header naming the columns, then one request a row.
class CsvTrace {
 public:
  CsvTrace(std::string format, std::vector<std::string> columns)
      : format_(std::move(format)), wanted_(std::move(columns)) {}

  void header(std::string_view line, const At& at) {
    const std::vector<std::string_view> cells = split_csv(line);
    for (const std::string& w : wanted_) {
      size_t i = 0;
      while (i < cells.size() && cells[i] != w) ++i;
      if (i == cells.size()) {
        at.fail("the " + format_ + " header has no column \"" + w + "\" (it needs " +
                column_list() + "; got \"" + std::string(line.substr(0, 200)) + "\")");
      }
      index_.push_back(i);
    }
  }

  const std::string& column(size_t k) const { return wanted_[k]; }

  // The wanted columns' cells of a row, in the order they were asked for.
  std::vector<std::string_view> row(std::string_view line, const At& at) const {
    const std::vector<std::string_view> cells = split_csv(line);
    std::vector<std::string_view> out;
    for (size_t k = 0; k < index_.size(); ++k) {
      if (index_[k] >= cells.size()) {
        at.fail("the row has " + std::to_string(cells.size()) + " columns; \"" + wanted_[k] +
                "\" is column " + std::to_string(index_[k] + 1));
      }
      out.push_back(cells[index_[k]]);
    }
    return out;
  }

 private:
  std::string column_list() const {
    std::string s;
    for (const std::string& w : wanted_) s += (s.empty() ? "" : ", ") + w;
    return s;
  }

  std::string format_;
  std::vector<std::string> wanted_;
  std::vector<size_t> index_;
};

const json& field(const json& record, const char* key, const At& at) {
  const auto it = record.find(key);
  if (it == record.end()) at.fail(std::string("missing field \"") + key + "\"");
  return *it;
}

int64_t json_integer(const json& record, const char* key, const At& at) {
  const json& v = field(record, key, at);
  if (!v.is_number_integer()) {
    at.fail(std::string("\"") + key + "\" must be an integer, got " + json_excerpt(v));
  }
  return v.get<int64_t>();
}

TraceRecord mooncake_record(const std::string& line, const At& at) {
  const json r = parse_record_json(line, at.file, at.line);
  if (!r.is_object()) at.fail("expected a JSON object, got " + json_excerpt(r));
  const json& ts = field(r, "timestamp", at);
  if (!ts.is_number() || !(ts.get<double>() >= 0 && ts.get<double>() <= kMaxTraceSeconds * 1000)) {
    at.fail("\"timestamp\" must be a number in [0, " + max_trace_text(1000) +
            "] (milliseconds from the trace's start, at most 365 days), got " + json_excerpt(ts));
  }
  TraceRecord t;
  t.timestamp_s = ts.get<double>() / 1000;
  t.input_tokens = tokens_in(json_integer(r, "input_length", at), "\"input_length\"", at);
  t.output_tokens = tokens_in(json_integer(r, "output_length", at), "\"output_length\"", at);
  const json& ids = field(r, "hash_ids", at);
  if (!ids.is_array()) at.fail("\"hash_ids\" must be an array of integers");
  for (const json& id : ids) {
    if (!id.is_number_integer()) {
      at.fail("\"hash_ids\" must hold integers, got " + json_excerpt(id));
    }
    t.hash_ids.push_back(id.get<int64_t>());
  }
  return t;
}

// A record far after the first (1e15 ms, the year 9999) would hold the replay for ages, and past
// 2^63 ns overflow its clock: refused where it stands, whatever window the workload asks for.
void check_span(double after_first_s, const std::string& format, const At& at) {
  if (after_first_s <= kMaxTraceSeconds) return;
  const char* field = format == "mooncake" ? "\"timestamp\""
                      : format == "azure"  ? "TIMESTAMP"
                                           : "Timestamp";
  char days[32];
  std::snprintf(days, sizeof days, "%.6g", after_first_s / 86'400);
  at.fail(std::string(field) + " is " + days + " days after the trace's first record: a trace " +
          "may span at most " + std::to_string(int64_t(kMaxTraceSeconds / 86'400)) +
          " days (docs/workload-schema.md, \"Limits\")");
}

}  // namespace

TraceReadCounts read_trace(const std::string& file, const std::string& format,
                           const std::function<bool(TraceRecord&&)>& on_record) {
  if (format != "mooncake" && format != "azure" && format != "burstgpt") {
    throw std::invalid_argument("dataset.format: unknown trace format \"" + format +
                                "\" (allowed: mooncake, azure, burstgpt)");
  }
  std::ifstream in(file);
  if (!in) throw DatasetError(file, 0, "cannot open the trace file");
  std::optional<CsvTrace> csv;
  if (format == "azure")
    csv.emplace("azure", std::vector<std::string>{"TIMESTAMP", "ContextTokens", "GeneratedTokens"});
  if (format == "burstgpt") {
    csv.emplace("burstgpt",
                std::vector<std::string>{"Timestamp", "Request tokens", "Response tokens"});
  }
  bool have_header = !csv;
  TraceReadCounts counts;
  std::optional<double> first, previous;
  std::string line;
  for (int n = 1; read_bounded_line(in, line, kMaxTraceLineBytes, file, n, "trace record"); ++n) {
    const At at{file, n};
    if (blank_line(line)) continue;
    if (!have_header) {
      csv->header(line, at);
      have_header = true;
      continue;
    }
    TraceRecord t;
    if (format == "mooncake") {
      t = mooncake_record(line, at);
    } else {
      const std::vector<std::string_view> cells = csv->row(line, at);
      t.timestamp_s =
          format == "azure" ? azure_timestamp(cells[0], at) : burstgpt_timestamp(cells[0], at);
      t.input_tokens = tokens_in(integer_cell(cells[1], csv->column(1), at), csv->column(1), at);
      t.output_tokens = tokens_in(integer_cell(cells[2], csv->column(2), at), csv->column(2), at);
    }
    t.line = n;
    if (previous && t.timestamp_s < *previous) {
      at.fail("timestamp " + std::to_string(t.timestamp_s) + " s is before the previous record's " +
              std::to_string(*previous) + " s: a trace must be sorted by time");
    }
    if (!first) first = t.timestamp_s;
    check_span(t.timestamp_s - *first, format, at);
    previous = t.timestamp_s;
    ++counts.records;
    if (format == "burstgpt" && t.output_tokens == 0) {  // a failed request: nothing to replay
      ++counts.skipped;
      continue;
    }
    if (!on_record(std::move(t))) break;
  }
  if (in.bad()) throw DatasetError(file, 0, "read error");
  if (!have_header) throw DatasetError(file, 0, "no header (the " + format + " format has one)");
  return counts;
}

}  // namespace infergate
