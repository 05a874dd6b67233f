#include "common/http/http_request_text.h"

namespace infergate {

namespace {

std::string head(const char* method, const HttpUrl& url, std::string_view path,
                 const HttpAccess& access) {
  std::string h;
  h.reserve(256);
  h += method;
  h += ' ';
  h += url.target(path);
  h += " HTTP/1.1\r\nHost: ";
  h += url.authority();
  h += "\r\nUser-Agent: infergate\r\n";
  if (!access.api_key.empty()) h += "Authorization: Bearer " + access.api_key + "\r\n";
  for (const auto& [name, value] : access.headers) h += name + ": " + value + "\r\n";
  return h;
}

}  // namespace

std::string http_post_json(const HttpUrl& url, std::string_view path, const HttpAccess& access,
                           std::string_view body) {
  std::string r = head("POST", url, path, access);
  r.reserve(r.size() + body.size() + 128);
  r += "Content-Type: application/json\r\nAccept: text/event-stream\r\nContent-Length: ";
  r += std::to_string(body.size());
  r += "\r\n\r\n";
  r += body;
  return r;
}

std::string http_get(const HttpUrl& url, std::string_view path, const HttpAccess& access) {
  return head("GET", url, path, access) + "Accept: application/json\r\nConnection: close\r\n\r\n";
}

}  // namespace infergate
