// One blocking GET of a JSON document (e.g. /v1/models), for setting up a run rather than
// measuring one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/http/http_access.h"
#include "common/http/http_url.h"

namespace infergate {

// GET url.target(path). Throws std::runtime_error naming the URL when the server cannot be
// reached within timeout_s, answers another status than 200 (with its error message), or
// answers something that is not JSON.
// The same, for any body (e.g. Prometheus text): the body, as it came. A body longer than
// max_body_bytes is refused (the connection closed at once) with an error saying so.
std::string http_get_text(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                          double timeout_s, size_t max_body_bytes = SIZE_MAX);

nlohmann::json http_get_json(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                             double timeout_s);

}  // namespace infergate
