#include "bench/metrics/error_classes.h"

#include <algorithm>
#include <cctype>

namespace infergate {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

bool contains_no_case(std::string_view s, std::string_view needle) {
  const auto it = std::search(s.begin(), s.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != s.end();
}

// "HTTP 503: ..." -> "http status 503"; the status is what tells a 429 from a 500.
std::string http_status_class(std::string_view message) {
  std::string digits;
  for (size_t i = 5; i < message.size() && std::isdigit(static_cast<unsigned char>(message[i]));
       ++i) {
    digits += message[i];
  }
  return digits.empty() ? "http error" : "http status " + digits;
}

}  // namespace

std::string error_class_of(std::string_view message) {
  if (starts_with(message, "cannot connect to ")) {
    if (contains_no_case(message, "TLS handshake failed")) return "tls handshake failed";
    return contains_no_case(message, "refused") ? "connection refused" : "cannot connect";
  }
  if (starts_with(message, "timeout")) return "timeout";
  if (starts_with(message, "HTTP ")) return http_status_class(message);
  if (starts_with(message, "connection lost")) return "connection lost";
  if (starts_with(message, "the response ended without")) return "incomplete response";
  if (starts_with(message, "the server reported an error") ||
      starts_with(message, "a streamed event is not") ||
      starts_with(message, "the server ended the completion")) {
    return "stream error";
  }
  if (starts_with(message, "client error")) return "client error";
  if (starts_with(message, "request '")) return "engine error";  // Engine::add_request refused
  return "other error";
}

std::vector<ErrorClass> classify_errors(const std::vector<RequestRecord>& records) {
  std::vector<const RequestRecord*> failed;
  for (const RequestRecord& r : records) {
    if (!r.warmup && r.status == RequestStatus::kError) failed.push_back(&r);
  }
  std::stable_sort(
      failed.begin(), failed.end(),
      [](const RequestRecord* a, const RequestRecord* b) { return a->index < b->index; });
  std::vector<ErrorClass> classes;
  for (const RequestRecord* r : failed) {
    const std::string name = error_class_of(r->error);
    auto it = std::find_if(classes.begin(), classes.end(),
                           [&](const ErrorClass& c) { return c.name == name; });
    if (it == classes.end()) it = classes.insert(classes.end(), {name, 0, r->error});
    ++it->count;
  }
  std::stable_sort(classes.begin(), classes.end(),
                   [](const ErrorClass& a, const ErrorClass& b) { return a.count > b.count; });
  return classes;
}

}  // namespace infergate
