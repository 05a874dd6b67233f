// HTTP/1.1 requests as the bytes that go on the wire, built once per request so the client's
// event loop only writes them.
#pragma once

#include <string>
#include <string_view>

#include "common/http/http_access.h"
#include "common/http/http_url.h"

namespace infergate {

// A keep-alive POST of a JSON body to url.target(path), asking for an event stream, with
// access's key ("Authorization: Bearer KEY") and headers.
std::string http_post_json(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                           std::string_view body);

// A GET of url.target(path) that closes the connection after the answer.
std::string http_get(const HttpUrl& url, std::string_view path, const HttpAccess& access);

}  // namespace infergate
