// A deliberately broken OpenAI-compatible server on loopback, for the router's fault tests: it
// answers GET /health with 200 (so the router lets it into rotation) and every other request as
// its mode says. One thread, one connection at a time; stops with the object.
#pragma once

#include <atomic>
#include <string>
#include <thread>

namespace infergate::test {

enum class Fault {
  kSilent,   // reads the request, never answers (the connection stays open)
  kGarbage,  // 200 with a body that is not JSON
  kCrash,    // closes the connection at once, answering nothing
};

class FaultyReplica {
 public:
  explicit FaultyReplica(Fault fault);
  ~FaultyReplica();
  FaultyReplica(const FaultyReplica&) = delete;
  FaultyReplica& operator=(const FaultyReplica&) = delete;

  std::string url() const;
  int requests() const { return requests_; }  // non-health requests it received

 private:
  void serve();
  void answer(int fd);

  Fault fault_;
  int listen_fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_ = false;
  std::atomic<int> requests_ = 0;
  std::thread thread_;
};

}  // namespace infergate::test
