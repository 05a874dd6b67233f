#include "engine/tokenizer/jinja/js_number.h"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInfinity = std::numeric_limits<double>::infinity();

bool is_digit(char c) { return c >= '0' && c <= '9'; }

size_t digits_at(std::string_view text, size_t pos) {
  size_t end = pos;
  while (end < text.size() && is_digit(text[end])) ++end;
  return end - pos;
}

// strtod on a validated decimal literal (it needs a terminated string).
double decimal_value(std::string_view literal) {
  const std::string copy(literal);
  return std::strtod(copy.c_str(), nullptr);
}

// The length of the StrDecimalLiteral prefix at `pos` (sign, Infinity, digits, fraction,
// exponent), or 0 when there is none.
size_t decimal_prefix(std::string_view text, size_t pos) {
  size_t end = pos;
  if (end < text.size() && (text[end] == '+' || text[end] == '-')) ++end;
  if (text.substr(end, 8) == "Infinity") return end + 8 - pos;
  const size_t whole = digits_at(text, end);
  end += whole;
  size_t fraction = 0;
  if (end < text.size() && text[end] == '.') {
    fraction = digits_at(text, end + 1);
    if (whole > 0 || fraction > 0) end += 1 + fraction;
  }
  if (whole == 0 && fraction == 0) return 0;
  if (end < text.size() && (text[end] == 'e' || text[end] == 'E')) {
    size_t exponent = end + 1;
    if (exponent < text.size() && (text[exponent] == '+' || text[exponent] == '-')) ++exponent;
    const size_t digits = digits_at(text, exponent);
    if (digits > 0) end = exponent + digits;
  }
  return end - pos;
}

double signed_infinity(std::string_view literal) {
  return literal[0] == '-' ? -kInfinity : kInfinity;
}

double radix_value(std::string_view digits, int radix) {
  if (digits.empty()) return kNaN;
  double value = 0;
  for (const char c : digits) {
    int digit = 0;
    if (is_digit(c)) {
      digit = c - '0';
    } else if (c >= 'a' && c <= 'f') {
      digit = c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      digit = c - 'A' + 10;
    } else {
      return kNaN;
    }
    if (digit >= radix) return kNaN;
    value = value * radix + digit;
  }
  return value;
}

}  // namespace

std::string js_number_to_string(double x) {
  if (std::isnan(x)) return "NaN";
  if (x == 0) return "0";
  if (std::isinf(x)) return x < 0 ? "-Infinity" : "Infinity";
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), std::fabs(x), std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<size_t>(result.ptr - buffer));
  // "d.ddde+XX": the digits without the point, and n, where the point goes (ECMA-262 6.1.6.1.20).
  const size_t e = text.find('e');
  std::string digits(1, text[0]);
  if (e > 1) digits += text.substr(2, e - 2);
  const int n = std::atoi(std::string(text.substr(e + 1)).c_str()) + 1;
  const int k = static_cast<int>(digits.size());
  std::string out = x < 0 ? "-" : "";
  if (k <= n && n <= 21) {
    out += digits + std::string(static_cast<size_t>(n - k), '0');
  } else if (0 < n && n <= 21) {
    out += digits.substr(0, static_cast<size_t>(n)) + "." + digits.substr(static_cast<size_t>(n));
  } else if (-6 < n && n <= 0) {
    out += "0." + std::string(static_cast<size_t>(-n), '0') + digits;
  } else {
    out += digits.substr(0, 1);
    if (k > 1) out += "." + digits.substr(1);
    out += (n - 1 >= 0 ? "e+" : "e-") + std::to_string(std::abs(n - 1));
  }
  return out;
}

std::string js_float_to_string(double x) {
  if (x == 0 && std::signbit(x)) return "-0.0";
  if (!std::isfinite(x) || x != std::trunc(x) || std::fabs(x) >= 1e21) {
    return js_number_to_string(x);
  }
  char buffer[64];
  const auto result =
      std::to_chars(buffer, buffer + sizeof(buffer), x, std::chars_format::fixed, 1);
  return std::string(buffer, result.ptr);
}

double js_parse_int(std::string_view text) {
  text = js_trim_start(text);
  size_t pos = 0;
  bool negative = false;
  if (pos < text.size() && (text[pos] == '+' || text[pos] == '-')) negative = text[pos++] == '-';
  const size_t digits = digits_at(text, pos);
  if (digits == 0) return kNaN;
  const double value = decimal_value(text.substr(pos, digits));
  return negative ? -value : value;
}

double js_parse_float(std::string_view text) {
  text = js_trim_start(text);
  const size_t size = decimal_prefix(text, 0);
  if (size == 0) return kNaN;
  const std::string_view literal = text.substr(0, size);
  if (literal.find("Infinity") != std::string_view::npos) return signed_infinity(literal);
  return decimal_value(literal);
}

double js_string_to_number(std::string_view text) {
  text = js_trim(text);
  if (text.empty()) return 0;
  if (text.size() > 2 && text[0] == '0') {
    const char prefix = text[1];
    if (prefix == 'x' || prefix == 'X') return radix_value(text.substr(2), 16);
    if (prefix == 'o' || prefix == 'O') return radix_value(text.substr(2), 8);
    if (prefix == 'b' || prefix == 'B') return radix_value(text.substr(2), 2);
  }
  if (decimal_prefix(text, 0) != text.size()) return kNaN;
  if (text.find("Infinity") != std::string_view::npos) return signed_infinity(text);
  return decimal_value(text);
}

}  // namespace infergate::jinja
