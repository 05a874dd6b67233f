#include "tests/http/faulty_replica.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <stdexcept>
#include <vector>

namespace infergate::test {

namespace {

void send_all(int fd, const std::string& bytes) {
  for (size_t at = 0; at < bytes.size();) {
    const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
    if (n <= 0) return;
    at += size_t(n);
  }
}

// The request head and as much body as arrives within a moment (enough to tell the route).
std::string read_request(int fd) {
  std::string in;
  char buffer[65536];
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, 200) <= 0) break;
    const ssize_t n = ::recv(fd, buffer, sizeof(buffer), 0);
    if (n <= 0) break;
    in.append(buffer, size_t(n));
    if (in.find("\r\n\r\n") != std::string::npos && in.rfind("GET ", 0) == 0) break;
  }
  return in;
}

}  // namespace

FaultyReplica::FaultyReplica(Fault fault) : fault_(fault) {
  listen_fd_ = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof(a);
  if (listen_fd_ < 0 || ::bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), sizeof(a)) != 0 ||
      ::listen(listen_fd_, 64) != 0 ||
      ::getsockname(listen_fd_, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
    throw std::runtime_error("the faulty replica cannot listen");
  }
  port_ = ntohs(a.sin_port);
  thread_ = std::thread([this] { serve(); });
}

FaultyReplica::~FaultyReplica() {
  stop_ = true;
  thread_.join();
  ::close(listen_fd_);
}

std::string FaultyReplica::url() const { return "http://127.0.0.1:" + std::to_string(port_); }

void FaultyReplica::serve() {
  std::vector<int> held;  // kSilent's connections, closed at the end
  while (!stop_) {
    pollfd p{listen_fd_, POLLIN, 0};
    if (::poll(&p, 1, 50) <= 0) continue;
    const int fd = ::accept(listen_fd_, nullptr, nullptr);
    if (fd < 0) continue;
    const std::string request = read_request(fd);
    if (request.rfind("GET /health", 0) == 0) {
      send_all(fd, "HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok");
      ::close(fd);
      continue;
    }
    ++requests_;
    if (fault_ == Fault::kSilent) {
      held.push_back(fd);
      continue;
    }
    if (fault_ == Fault::kGarbage) {
      send_all(fd,
               "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n"
               "Connection: close\r\n\r\nnot-json!!!");
    }
    ::close(fd);
  }
  for (const int fd : held) ::close(fd);
}

}  // namespace infergate::test
