#include "bench/telemetry/prometheus_text.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace infergate {

namespace {

bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return name_start(c) || std::isdigit(static_cast<unsigned char>(c)); }
bool blank(char c) { return c == ' ' || c == '\t'; }

// One line's cursor; every failure names the source and line.
class LineReader {
 public:
  LineReader(std::string_view line, const std::string& source, size_t number)
      : line_(line), source_(source), number_(number) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw PrometheusTextError(source_ + ":" + std::to_string(number_) + ": " + what);
  }
  void skip_blanks() {
    while (pos_ < line_.size() && blank(line_[pos_])) ++pos_;
  }
  bool at_end() const { return pos_ >= line_.size(); }
  char peek() const { return at_end() ? '\0' : line_[pos_]; }
  void expect(char c, const char* what) {
    if (peek() != c) fail(std::string("expected ") + what);
    ++pos_;
  }
  // A metric name ([a-zA-Z_:][a-zA-Z0-9_:]*) or a label name (no colons).
  std::string name(bool colons, const char* what) {
    const size_t start = pos_;
    const auto ok = [&](char c, bool first) {
      return (first ? name_start(c) : name_char(c)) || (colons && c == ':');
    };
    while (!at_end() && ok(line_[pos_], pos_ == start)) ++pos_;
    if (pos_ == start) fail(std::string("expected ") + what);
    return std::string(line_.substr(start, pos_ - start));
  }
  std::string quoted() {
    expect('"', "'\"' opening a label value");
    std::string out;
    for (;;) {
      if (at_end()) fail("unterminated label value");
      const char c = line_[pos_++];
      if (c == '"') return out;
      if (c != '\\') {
        out += c;
        continue;
      }
      if (at_end()) fail("unterminated label value");
      const char e = line_[pos_++];
      if (e == 'n') {
        out += '\n';
      } else if (e == '\\' || e == '"') {
        out += e;
      } else {
        fail(std::string("unknown escape \\") + e + " in a label value");
      }
    }
  }
  std::string_view token() {
    const size_t start = pos_;
    while (!at_end() && !blank(line_[pos_])) ++pos_;
    return line_.substr(start, pos_ - start);
  }

 private:
  std::string_view line_;
  const std::string& source_;
  size_t number_;
  size_t pos_ = 0;
};

bool parse_number(std::string_view text, double* out) {
  if (text == "+Inf" || text == "Inf") return *out = std::numeric_limits<double>::infinity(), true;
  if (text == "-Inf") return *out = -std::numeric_limits<double>::infinity(), true;
  if (text == "NaN") return *out = std::numeric_limits<double>::quiet_NaN(), true;
  if (!text.empty() && text[0] == '+') text.remove_prefix(1);
  if (text.empty() ||
      !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '-' || text[0] == '.')) {
    return false;
  }
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && end == text.data() + text.size();
}

void read_labels(LineReader& in, const PrometheusLimits& limits, PrometheusSample& s) {
  in.expect('{', "'{'");
  for (;;) {
    in.skip_blanks();
    if (in.peek() == '}') break;
    if (s.labels.size() >= limits.max_labels) {
      in.fail("more than " + std::to_string(limits.max_labels) + " labels");
    }
    PrometheusLabel label;
    label.name = in.name(false, "a label name");
    in.skip_blanks();
    in.expect('=', "'=' after the label name");
    in.skip_blanks();
    label.value = in.quoted();
    s.labels.push_back(std::move(label));
    in.skip_blanks();
    if (in.peek() == ',') {
      in.expect(',', "','");
      continue;
    }
    if (in.peek() != '}') in.fail("expected ',' or '}' after a label");
  }
  in.expect('}', "'}'");
}

PrometheusSample read_sample(LineReader& in, const PrometheusLimits& limits) {
  PrometheusSample s;
  s.name = in.name(true, "a metric name");
  in.skip_blanks();
  if (in.peek() == '{') read_labels(in, limits, s);
  in.skip_blanks();
  const std::string_view value = in.token();
  if (value.empty()) in.fail("metric " + s.name + " has no value");
  if (!parse_number(value, &s.value)) {
    in.fail("metric " + s.name + ": \"" + std::string(value.substr(0, 40)) + "\" is not a number");
  }
  in.skip_blanks();
  const std::string_view timestamp = in.token();
  double ignored = 0;
  if (!timestamp.empty() && !parse_number(timestamp, &ignored)) {
    in.fail("metric " + s.name + ": the timestamp is not a number");
  }
  in.skip_blanks();
  if (!in.at_end()) in.fail("metric " + s.name + ": unexpected text after the value");
  return s;
}

std::string escaped(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"') out += '\\';
    out += c == '\n' ? std::string("\\n") : std::string(1, c);
  }
  return out;
}

}  // namespace

std::optional<double> parse_prometheus_number(std::string_view text) {
  double value = 0;
  if (!parse_number(text, &value)) return std::nullopt;
  return value;
}

const std::string* PrometheusSample::label(std::string_view label_name) const {
  for (const PrometheusLabel& l : labels) {
    if (l.name == label_name) return &l.value;
  }
  return nullptr;
}

std::string PrometheusSample::key() const {
  if (labels.empty()) return name;
  std::string out = name + "{";
  for (size_t i = 0; i < labels.size(); ++i) {
    out += (i ? "," : "") + labels[i].name + "=\"" + escaped(labels[i].value) + "\"";
  }
  return out + "}";
}

std::vector<PrometheusSample> parse_prometheus_text(std::string_view text,
                                                    const std::string& source,
                                                    const PrometheusLimits& limits) {
  if (text.size() > limits.max_body_bytes) {
    throw PrometheusTextError(source + ": the body (" + std::to_string(text.size()) +
                              " bytes) exceeds the limit of " +
                              std::to_string(limits.max_body_bytes) + " bytes");
  }
  std::vector<PrometheusSample> samples;
  size_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    std::string_view line = text.substr(0, end);
    text.remove_prefix(end == std::string_view::npos ? text.size() : end + 1);
    ++number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    LineReader in(line, source, number);
    if (line.size() > limits.max_line_bytes) {
      in.fail("the line exceeds the limit of " + std::to_string(limits.max_line_bytes) + " bytes");
    }
    in.skip_blanks();
    if (in.at_end() || in.peek() == '#') continue;  // blank, HELP, TYPE or a comment
    if (samples.size() >= limits.max_samples) {
      in.fail("more than " + std::to_string(limits.max_samples) + " samples");
    }
    samples.push_back(read_sample(in, limits));
  }
  return samples;
}

std::map<std::string, double> prometheus_value_map(const std::vector<PrometheusSample>& samples) {
  std::map<std::string, double> out;
  for (const PrometheusSample& s : samples) out[s.key()] = s.value;
  return out;
}

}  // namespace infergate
