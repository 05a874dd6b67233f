#include "common/http/child_server.h"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <iostream>
#include <stdexcept>
#include <thread>

#include "common/util/clock.h"

namespace infergate {

namespace {

constexpr std::string_view kListening = "listening on ";
constexpr size_t kMaxLine = 4096;  // a longer line without a newline is passed on as it is

std::string status_text(int status) {
  if (WIFSIGNALED(status)) return "was killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with " + std::to_string(WEXITSTATUS(status));
}

// Between fork and exec only async-signal-safe calls (the router has threads): `args` is built
// before the fork.
[[noreturn]] void exec_child(char* const* args, char* const* envp, int out_write,
                             const cpu_set_t* cpus) {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (cpus) sched_setaffinity(0, sizeof(cpu_set_t), cpus);
  dup2(out_write, STDOUT_FILENO);
  const int null = open("/dev/null", O_RDONLY);
  if (null >= 0) dup2(null, STDIN_FILENO);
  execve(args[0], args, envp);
  _exit(127);
}

// This process's environment with `overrides` ("NAME=VALUE") added or replacing theirs.
std::vector<std::string> child_environment(const std::vector<std::string>& overrides) {
  std::vector<std::string> out;
  auto overridden = [&](std::string_view entry) {
    for (const std::string& o : overrides) {
      const size_t eq = o.find('=');
      if (entry.substr(0, entry.find('=')) == std::string_view(o).substr(0, eq)) return true;
    }
    return false;
  };
  for (char** e = environ; *e != nullptr; ++e) {
    if (!overridden(*e)) out.emplace_back(*e);
  }
  out.insert(out.end(), overrides.begin(), overrides.end());
  return out;
}

std::vector<char*> pointers(const std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (const std::string& s : strings) out.push_back(const_cast<char*>(s.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

ChildServer::ChildServer(std::string name, const std::vector<std::string>& argv,
                         double start_timeout_s, int cpu, const std::vector<std::string>& env)
    : name_(std::move(name)) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (cpu >= 0) CPU_SET(cpu, &cpus);
  const std::vector<std::string> environment = child_environment(env);
  std::vector<char*> args = pointers(argv), envp = pointers(environment);
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    throw std::runtime_error(name_ + ": cannot make a pipe: " + std::strerror(errno));
  }
  pid_ = fork();
  if (pid_ == 0) exec_child(args.data(), envp.data(), fds[1], cpu >= 0 ? &cpus : nullptr);
  close(fds[1]);
  if (pid_ < 0) {
    close(fds[0]);
    throw std::runtime_error(name_ + ": cannot fork: " + std::strerror(errno));
  }
  out_fd_ = fds[0];
  fcntl(out_fd_, F_SETFL, fcntl(out_fd_, F_GETFL) | O_NONBLOCK);
  const auto deadline = std::chrono::steady_clock::now() + seconds_to_duration(start_timeout_s);
  while (url_.host.empty()) {
    const std::string end = ended();
    if (!end.empty()) {
      throw std::runtime_error(name_ + " (" + argv[0] + ") " + end +
                               " before it listened (its messages are above)");
    }
    if (std::chrono::steady_clock::now() > deadline) {
      terminate(1);
      throw std::runtime_error(name_ + " did not listen within " +
                               std::to_string(int(start_timeout_s)) + " s");
    }
    pollfd p{out_fd_, POLLIN, 0};
    poll(&p, 1, 50);
    drain_output();
  }
}

ChildServer::~ChildServer() {
  terminate();
  if (out_fd_ >= 0) close(out_fd_);
}

void ChildServer::drain_output() {
  char buffer[4096];
  for (;;) {
    const ssize_t n = read(out_fd_, buffer, sizeof(buffer));
    if (n <= 0) break;
    pending_.append(buffer, size_t(n));
  }
  size_t start = 0;
  for (size_t nl; (nl = pending_.find('\n', start)) != std::string::npos; start = nl + 1) {
    const std::string line = pending_.substr(start, nl - start);
    if (url_.host.empty() && line.starts_with(kListening)) {
      try {
        url_ = parse_http_url(line.substr(kListening.size()));
      } catch (const std::invalid_argument& e) {
        std::cerr << "[" << name_ << "] " << line << " (not an address: " << e.what() << ")\n";
      }
    } else {
      std::cerr << "[" << name_ << "] " << line << "\n";
    }
  }
  pending_.erase(0, start);
  if (pending_.size() > kMaxLine) {
    std::cerr << "[" << name_ << "] " << pending_ << "\n";
    pending_.clear();
  }
}

std::string ChildServer::ended() {
  if (reaped_) return "ended";
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return "";
  reaped_ = true;
  return status_text(status);
}

void ChildServer::terminate(double grace_s) {
  if (reaped_ || pid_ <= 0) return;
  kill(pid_, SIGTERM);
  const auto deadline = std::chrono::steady_clock::now() + seconds_to_duration(grace_s);
  while (ended().empty()) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid_, SIGKILL);
      int status = 0;
      waitpid(pid_, &status, 0);
      reaped_ = true;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace infergate
