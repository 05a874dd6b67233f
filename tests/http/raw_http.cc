#include "tests/http/raw_http.h"

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <signal.h>
#include <cerrno>
#include <chrono>
#include <stdexcept>

namespace infergate::test {

namespace {

int port_of(const std::string& url) {
  const size_t colon = url.rfind(':');
  if (colon == std::string::npos) throw std::runtime_error("no port in " + url);
  return std::stoi(url.substr(colon + 1));
}

}  // namespace

RawConnection::RawConnection(const std::string& url) {
  ::signal(SIGPIPE, SIG_IGN);  // a server that closes early must fail send(), not the test
  fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = htons(static_cast<uint16_t>(port_of(url)));
  if (fd_ < 0 || ::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0) {
    const int err = errno;
    if (fd_ >= 0) ::close(fd_);
    throw std::runtime_error("cannot connect to " + url + ": errno " + std::to_string(err));
  }
}

RawConnection::~RawConnection() { ::close(fd_); }

bool RawConnection::send(const std::string& bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const ssize_t n = ::send(fd_, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += size_t(n);
  }
  return true;
}

std::string RawConnection::read_until_close(double timeout_s, bool* closed) {
  std::string out;
  char chunk[65536];
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, int(timeout_s * 1000));
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) break;  // timed out
    const ssize_t n = ::recv(fd_, chunk, sizeof(chunk), 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {  // closed (or reset)
      if (closed) *closed = true;
      return out;
    }
    out.append(chunk, size_t(n));
  }
  if (closed) *closed = false;
  return out;
}

int status_of(const std::string& response) {
  if (response.rfind("HTTP/1.", 0) != 0 || response.size() < 12) return 0;
  return std::stoi(response.substr(9, 3));
}

std::string body_of(const std::string& response) {
  const size_t end = response.find("\r\n\r\n");
  return end == std::string::npos ? "" : response.substr(end + 4);
}

std::string http_request(const std::string& url, const std::string& method,
                         const std::string& target, const std::string& body, double timeout_s) {
  RawConnection c(url);
  c.send(method + " " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n" +
         "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) +
         "\r\n\r\n" + body);
  return c.read_until_close(timeout_s);
}

}  // namespace infergate::test
