#include "gates/bisect/subprocess.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <optional>
#include <thread>

#include "gates/bisect/interrupt.h"
#include "gates/report/reproduce_command.h"

extern char** environ;

namespace infergate {

namespace {

constexpr const char* kGitLocatingVariables[] = {"GIT_DIR",
                                                 "GIT_WORK_TREE",
                                                 "GIT_INDEX_FILE",
                                                 "GIT_COMMON_DIR",
                                                 "GIT_OBJECT_DIRECTORY",
                                                 "GIT_PREFIX",
                                                 "GIT_CEILING_DIRECTORIES"};

std::vector<std::string> child_environment(const ProcessSpec& spec) {
  std::vector<std::string> env;
  for (char** e = environ; *e != nullptr; ++e) {
    const std::string entry = *e;
    const std::string name = entry.substr(0, entry.find('='));
    bool drop = spec.set_env.count(name) > 0;
    for (const char* git : kGitLocatingVariables) drop = drop || (spec.drop_git_env && name == git);
    if (!drop) env.push_back(entry);
  }
  for (const auto& [name, value] : spec.set_env) env.push_back(name + "=" + value);
  return env;
}

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (std::string& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

// posix_spawn's file actions and attributes, released on every path out.
struct SpawnSetup {
  posix_spawn_file_actions_t actions;
  posix_spawnattr_t attr;
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions);
    posix_spawnattr_init(&attr);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

class Pipe {
 public:
  Pipe() {
    if (pipe2(fds_.data(), O_CLOEXEC) != 0) {
      throw ProcessError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
  }
  ~Pipe() {
    close_read();
    close_write();
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  int read_fd() const { return fds_[0]; }
  int write_fd() const { return fds_[1]; }
  void close_read() { close_fd(fds_[0]); }
  void close_write() { close_fd(fds_[1]); }

 private:
  static void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
  }
  std::array<int, 2> fds_ = {-1, -1};
};

void add_output(SpawnSetup& s, int fd, Output how, const ProcessSpec& spec, int pipe_write_fd) {
  switch (how) {
    case Output::kCapture:
      posix_spawn_file_actions_adddup2(&s.actions, pipe_write_fd, fd);
      break;
    case Output::kInherit:
      break;
    case Output::kNull:
      posix_spawn_file_actions_addopen(&s.actions, fd, "/dev/null", O_WRONLY, 0);
      break;
    case Output::kFile:
      posix_spawn_file_actions_addopen(&s.actions, fd, spec.log_file.c_str(),
                                       O_WRONLY | O_CREAT | O_APPEND, 0644);
      break;
    case Output::kSameAsStdout:
      posix_spawn_file_actions_adddup2(&s.actions, STDOUT_FILENO, fd);
      break;
  }
}

// Reads the captured pipes until both close, forwarding an interrupt to the child's group.
void drain(Pipe* out_pipe, Pipe* err_pipe, ProcessResult& r, pid_t pid, int& forwarded) {
  std::vector<std::pair<Pipe*, std::string*>> open;
  if (out_pipe) open.push_back({out_pipe, &r.out});
  if (err_pipe) open.push_back({err_pipe, &r.err});
  while (!open.empty()) {
    if (!forwarded && interrupt_to_forward() != 0) {
      forwarded = interrupt_to_forward();
      kill(-pid, forwarded);
    }
    std::vector<pollfd> fds;
    for (const auto& [pipe, text] : open) fds.push_back({pipe->read_fd(), POLLIN, 0});
    if (poll(fds.data(), fds.size(), 100) < 0 && errno != EINTR) break;
    for (size_t i = fds.size(); i-- > 0;) {
      if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[8192];
      const ssize_t n = ::read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        open[i].second->append(buf, size_t(n));
      } else if (n == 0 || errno != EINTR) {
        open[i].first->close_read();
        open.erase(open.begin() + long(i));
      }
    }
  }
}

int wait_for(pid_t pid, int& forwarded) {
  int status = 0;
  while (true) {
    if (!forwarded && interrupt_to_forward() != 0) {
      forwarded = interrupt_to_forward();
      kill(-pid, forwarded);
    }
    const pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == pid) return status;
    if (done < 0 && errno != EINTR) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace

std::string ProcessResult::describe() const {
  if (term_signal != 0) return "was killed by signal " + std::to_string(term_signal);
  return "exited with " + std::to_string(exit_code);
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) throw ProcessError("no program to run");
  SpawnSetup s;
  posix_spawn_file_actions_addopen(&s.actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  std::optional<Pipe> out_pipe, err_pipe;
  if (spec.out == Output::kCapture) out_pipe.emplace();
  if (spec.err == Output::kCapture) err_pipe.emplace();
  add_output(s, STDOUT_FILENO, spec.out == Output::kSameAsStdout ? Output::kInherit : spec.out,
             spec, out_pipe ? out_pipe->write_fd() : -1);
  add_output(s, STDERR_FILENO, spec.err, spec, err_pipe ? err_pipe->write_fd() : -1);
  if (!spec.working_dir.empty()) {
    posix_spawn_file_actions_addchdir_np(&s.actions, spec.working_dir.c_str());
  }
  // A process group of its own: an interrupt reaches everything it started, through us.
  sigset_t defaults, empty;
  sigemptyset(&defaults);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) sigaddset(&defaults, sig);
  sigemptyset(&empty);
  posix_spawnattr_setflags(&s.attr,
                           POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&s.attr, 0);
  posix_spawnattr_setsigdefault(&s.attr, &defaults);
  posix_spawnattr_setsigmask(&s.attr, &empty);

  std::vector<std::string> args = spec.argv;
  std::vector<std::string> env = child_environment(spec);
  std::vector<char*> argv = pointers(args), envp = pointers(env);
  pid_t pid = 0;
  const int rc = posix_spawnp(&pid, argv[0], &s.actions, &s.attr, argv.data(), envp.data());
  if (rc != 0) {
    throw ProcessError("cannot run " + spec.argv[0] +
                       (spec.working_dir.empty() ? "" : " in " + spec.working_dir) + ": " +
                       std::strerror(rc));
  }
  if (out_pipe) out_pipe->close_write();
  if (err_pipe) err_pipe->close_write();

  ProcessResult r;
  int forwarded = 0;
  drain(out_pipe ? &*out_pipe : nullptr, err_pipe ? &*err_pipe : nullptr, r, pid, forwarded);
  const int status = wait_for(pid, forwarded);
  r.interrupted = forwarded != 0;
  if (status >= 0 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (status >= 0 && WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

std::string describe_command(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& a : argv) text += (text.empty() ? "" : " ") + shell_quote(a);
  return text;
}

}  // namespace infergate
