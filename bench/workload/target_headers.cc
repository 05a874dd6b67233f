#include "bench/workload/target_headers.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_limits.h"

namespace infergate {

namespace {

// The headers the client writes on every request: a second copy would contradict it.
const std::vector<std::string> kClientOwned = {
    "host",       "content-length",    "content-type", "accept",
    "connection", "transfer-encoding", "user-agent",   "te",
    "upgrade"};

bool is_token_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) ||
         std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool is_name_char(char c, bool first) {
  return c == '_' || std::isalpha(static_cast<unsigned char>(c)) ||
         (!first && std::isdigit(static_cast<unsigned char>(c)));
}

std::string lowercase(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Why `name` cannot be a header name, or "".
std::string name_problem(const std::string& name, const HeaderList& earlier) {
  if (name.empty() || name.size() > kMaxHeaderNameBytes ||
      !std::all_of(name.begin(), name.end(), is_token_char)) {
    return "a header name is 1 to " + std::to_string(kMaxHeaderNameBytes) +
           " letters, digits or !#$%&'*+-.^_`|~";
  }
  const std::string lower = lowercase(name);
  if (std::find(kClientOwned.begin(), kClientOwned.end(), lower) != kClientOwned.end()) {
    return "the client writes " + name + " itself";
  }
  for (const auto& [other, value] : earlier) {
    if (lowercase(other) == lower) return "a second " + name + " (names ignore case)";
  }
  return "";
}

// Why `value` cannot be a header value, or "".
std::string value_problem(const std::string& value) {
  if (value.size() > kMaxHeaderValueBytes) {
    return "longer than " + std::to_string(kMaxHeaderValueBytes) + " bytes";
  }
  if (!header_value_printable(value)) return "only printable ASCII characters and tabs";
  try {
    expand_environment(value, [](const std::string&) { return ""; });
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "";
}

}  // namespace

bool header_value_printable(const std::string& value) {
  return std::all_of(value.begin(), value.end(),
                     [](char c) { return c == '\t' || (c >= ' ' && c <= '~'); });
}

HeaderList read_target_headers(JsonObjectReader& target) {
  const nlohmann::json* headers = target.find("headers");
  HeaderList out;
  if (headers == nullptr) return out;
  const std::string path = target.path_of("headers");
  if (!headers->is_object()) {
    throw WorkloadError(target.file(), path, json_text(*headers), "",
                        "expected an object of header names to values");
  }
  if (headers->size() > kMaxTargetHeaders) {
    throw WorkloadError::out_of_range(target.file(), path, std::to_string(headers->size()),
                                      "at most " + std::to_string(kMaxTargetHeaders) + " headers");
  }
  JsonObjectReader r(*headers, path, target.file());
  for (const auto& [name, value] : headers->items()) {
    const std::string problem = name_problem(name, out);
    if (!problem.empty()) {
      throw WorkloadError(target.file(), r.path_of(name), json_text(name), "", problem);
    }
    const std::string text = r.get_string(name, "");
    const std::string bad_value = value_problem(text);
    if (!bad_value.empty()) {
      throw WorkloadError(target.file(), r.path_of(name), json_text(value), "", bad_value);
    }
    out.emplace_back(name, text);
  }
  return out;
}

std::string expand_environment(const std::string& value,
                               const std::function<const char*(const std::string&)>& lookup) {
  std::string out;
  size_t at = 0;
  while (at < value.size()) {
    const size_t start = value.find("${", at);
    if (start == std::string::npos) break;
    const size_t end = value.find('}', start);
    const std::string name =
        end == std::string::npos ? "" : value.substr(start + 2, end - start - 2);
    bool ok = !name.empty();
    for (size_t i = 0; i < name.size(); ++i) ok = ok && is_name_char(name[i], i == 0);
    if (!ok) {
      throw std::invalid_argument(
          "${...} must enclose an environment variable's name (letters, "
          "digits and _, not starting with a digit)");
    }
    const char* found = lookup(name);
    if (found == nullptr) {
      throw std::invalid_argument("the environment variable " + name + " is not set");
    }
    out.append(value, at, start - at);
    out += found;
    at = end + 1;
  }
  out.append(value, at, std::string::npos);
  return out;
}

}  // namespace infergate
