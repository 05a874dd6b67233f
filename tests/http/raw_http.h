// Raw HTTP over a loopback TCP socket, for requests no HTTP library would send (malformed
// headers, half a header, a connection that says nothing). Every read is bounded.
#pragma once

#include <string>

namespace infergate::test {

class RawConnection {
 public:
  // Connects to the port of `url` ("http://127.0.0.1:PORT"); throws std::runtime_error.
  explicit RawConnection(const std::string& url);
  ~RawConnection();
  RawConnection(const RawConnection&) = delete;
  RawConnection& operator=(const RawConnection&) = delete;

  // Sends `bytes` (as much as the server takes: it may close early); false if it closed first.
  bool send(const std::string& bytes);
  // Everything the server sends until it closes the connection or `timeout_s` passes with
  // nothing new; `closed` says which.
  std::string read_until_close(double timeout_s, bool* closed = nullptr);

 private:
  int fd_ = -1;
};

// The status code of a raw response ("HTTP/1.1 431 ..."), 0 when there is none.
int status_of(const std::string& response);
// The body after the header ("" when there is none).
std::string body_of(const std::string& response);

// One request with `Connection: close`, its whole response (bounded by timeout_s).
std::string http_request(const std::string& url, const std::string& method,
                         const std::string& target, const std::string& body = "",
                         double timeout_s = 60);

}  // namespace infergate::test
