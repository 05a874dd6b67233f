#include "bench/http/target_access.h"

#include <strings.h>
#include <cstdlib>
#include <stdexcept>

#include "bench/workload/target_headers.h"
#include "common/http/http_url.h"
#include "common/http/tls_context.h"

namespace infergate {

namespace {

HeaderList expanded_headers(const TargetSpec& target) {
  HeaderList out;
  for (const auto& [name, written] : target.headers) {
    const std::string where = "target.headers." + name;
    std::string value;
    try {
      value =
          expand_environment(written, [](const std::string& n) { return std::getenv(n.c_str()); });
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error(where + ": " + e.what());
    }
    if (!header_value_printable(value)) {
      throw std::runtime_error(where +
                               ": the environment gives a value with characters a header "
                               "cannot carry (printable ASCII and tabs only)");
    }
    out.emplace_back(name, value);
  }
  return out;
}

}  // namespace

HttpAccess target_access(const TargetSpec& target) {
  HttpAccess access;
  if (const char* key = std::getenv("OPENAI_API_KEY")) access.api_key = key;
  access.headers = expanded_headers(target);
  for (const auto& [name, value] : access.headers) {
    if (!access.api_key.empty() && strcasecmp(name.c_str(), "authorization") == 0) {
      throw std::runtime_error("target.headers." + name +
                               ": $OPENAI_API_KEY sets Authorization too; keep one of the two");
    }
  }
  if (!parse_http_url(target.url).tls) return access;
  try {
    access.tls = make_tls_context({target.tls_verify, target.tls_ca_file});
  } catch (const std::exception& e) {
    throw std::runtime_error(std::string("target.tls: ") + e.what());
  }
  return access;
}

}  // namespace infergate
