#include "gates/process/subprocess.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <boost/asio/io_context.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <boost/asio/read.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/process/args.hpp>
#include <boost/process/child.hpp>
#include <boost/process/env.hpp>
#include <boost/process/environment.hpp>
#include <boost/process/exe.hpp>
#include <boost/process/extend.hpp>
#include <boost/process/io.hpp>
#include <boost/process/search_path.hpp>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <optional>
#include <system_error>
#include <thread>

#include "common/util/shell_quote.h"
#include "gates/process/interrupt.h"

namespace infergate {

namespace {

namespace bp = boost::process;

constexpr const char* kGitLocatingVariables[] = {"GIT_DIR",
                                                 "GIT_WORK_TREE",
                                                 "GIT_INDEX_FILE",
                                                 "GIT_COMMON_DIR",
                                                 "GIT_OBJECT_DIRECTORY",
                                                 "GIT_PREFIX",
                                                 "GIT_CEILING_DIRECTORIES"};

bp::environment child_environment(const ProcessSpec& spec) {
  bp::environment env = boost::this_process::environment();
  if (spec.drop_git_env) {
    for (const char* git : kGitLocatingVariables) env.erase(git);
  }
  for (const auto& [name, value] : spec.set_env) env[name] = value;
  return env;
}

// argv[0] as posix_spawnp would find it: in our PATH when it has no '/'. Boost.Process's own
// lookup (the command-line form) would also run a file of that name in the current directory.
std::string executable(const ProcessSpec& spec) {
  const std::string& name = spec.argv[0];
  if (name.find('/') != std::string::npos) return name;
  return bp::search_path(name).string();
}

[[noreturn]] void throw_cannot_run(const ProcessSpec& spec, const std::string& why) {
  throw ProcessError("cannot run " + spec.argv[0] +
                     (spec.working_dir.empty() ? "" : " in " + spec.working_dir) + ": " + why);
}

// A descriptor of ours, closed on exec (dup2 in the child clears that for its copy only).
class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  ~OwnedFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

// What the child does between fork and exec, which Boost.Process leaves to extensions: its own
// process group (so that an interrupt reaches everything it starts), default dispositions and
// an empty mask for the signals we handle or block, its outputs, and its directory (Boost's
// start_dir ignores a failed chdir). Only async-signal-safe calls: the parent may have threads.
class ChildSetup : public bp::extend::handler {
 public:
  ChildSetup(int out_fd, int err_fd, bool err_to_out, const std::string& dir)
      : out_fd_(out_fd), err_fd_(err_fd), err_to_out_(err_to_out), dir_(dir.c_str()) {}

  template <typename Executor>
  void on_exec_setup(Executor& e) const {
    if (setpgid(0, 0) != 0) fail(e, "setpgid");
    for (const int sig : {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT}) std::signal(sig, SIG_DFL);
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, nullptr);
    if (out_fd_ >= 0 && dup2(out_fd_, STDOUT_FILENO) < 0) fail(e, "dup2");
    if (err_fd_ >= 0 && dup2(err_fd_, STDERR_FILENO) < 0) fail(e, "dup2");
    if (err_to_out_ && dup2(STDOUT_FILENO, STDERR_FILENO) < 0) fail(e, "dup2");
    if (*dir_ != '\0' && chdir(dir_) != 0) fail(e, "chdir");
  }

  // In the parent: a child that failed before exec has exited, and Boost leaves it unreaped.
  template <typename Executor>
  void on_error(Executor& e, const std::error_code&) const {
    if (e.pid > 0) waitpid(e.pid, nullptr, 0);
  }

 private:
  // Reports errno to the parent through Boost's error pipe; set_error alone would go on to exec.
  template <typename Executor>
  static void fail(Executor& e, const char* what) {
    e.set_error(std::error_code(errno, std::system_category()), what);
    _exit(127);
  }

  int out_fd_, err_fd_;
  bool err_to_out_;
  const char* dir_;
};

// The descriptor a non-captured output goes to in the child, or -1 to leave it as ours.
int open_output(Output how, const ProcessSpec& spec, std::optional<OwnedFd>& owner) {
  int fd = -1;
  if (how == Output::kNull) fd = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (how == Output::kFile) {
    fd = ::open(spec.log_file.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  }
  if ((how == Output::kNull || how == Output::kFile) && fd < 0) {
    const int error = errno;
    throw_cannot_run(spec, "cannot open " + (how == Output::kNull ? "/dev/null" : spec.log_file) +
                               ": " + std::strerror(error));
  }
  if (fd >= 0) owner.emplace(fd);
  return fd;
}

// A pipe for a captured output, both ends closed on exec so that no other child inherits them:
// the read end for the event loop, the write end for the child's dup2.
struct CapturePipe {
  CapturePipe(boost::asio::io_context& io, int fds[2]) : read_end(io, fds[0]), write_end(fds[1]) {}
  boost::asio::posix::stream_descriptor read_end;
  std::optional<OwnedFd> write_end;
};

std::optional<CapturePipe> capture_pipe(Output how, boost::asio::io_context& io) {
  if (how != Output::kCapture) return std::nullopt;
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) {
    throw ProcessError(std::string("cannot create a pipe: ") + std::strerror(errno));
  }
  return std::optional<CapturePipe>(std::in_place, io, fds);
}

// A stopped child gets this long to end on SIGTERM before SIGKILL.
constexpr std::chrono::seconds kKillGrace{5};

// What is done to a running child while we wait for it: an interrupt passed on to its group,
// and past its time limit, SIGTERM then SIGKILL to the group.
struct ChildWatch {
  pid_t pid = 0;
  int forwarded = 0;
  std::optional<std::chrono::steady_clock::time_point> deadline, terminated_at;
  bool killed = false;

  void check() {
    if (forwarded == 0 && interrupt_to_forward() != 0) {
      forwarded = interrupt_to_forward();
      kill(-pid, forwarded);
    }
    const auto now = std::chrono::steady_clock::now();
    if (deadline && !terminated_at && now >= *deadline) {
      terminated_at = now;
      kill(-pid, SIGTERM);
    }
    if (terminated_at && !killed && now - *terminated_at >= kKillGrace) {
      killed = true;
      kill(-pid, SIGKILL);
    }
  }
};

// Reads the captured pipes until both close, checking the child every 100 ms.
void drain(boost::asio::io_context& io, std::optional<CapturePipe>& out_pipe,
           std::optional<CapturePipe>& err_pipe, ProcessResult& r, ChildWatch& child) {
  int open = 0;
  auto read_all = [&](CapturePipe& pipe, std::string& text) {
    ++open;
    boost::asio::async_read(pipe.read_end, boost::asio::dynamic_buffer(text),
                            [&](const boost::system::error_code&, size_t) { --open; });
  };
  if (out_pipe) read_all(*out_pipe, r.out);
  if (err_pipe) read_all(*err_pipe, r.err);
  boost::asio::steady_timer timer(io);
  std::function<void()> watch = [&] {
    child.check();
    if (open == 0) return;
    timer.expires_after(std::chrono::milliseconds(100));
    timer.async_wait([&](const boost::system::error_code&) { watch(); });
  };
  watch();
  io.run();
}

// The wait status once it has ended, or -1 when it was reaped elsewhere.
int wait_for(bp::child& child, ChildWatch& watch) {
  std::error_code ec;
  while (child.running(ec)) {
    watch.check();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  const int status = child.native_exit_code();
  return WIFEXITED(status) || WIFSIGNALED(status) ? status : -1;
}

}  // namespace

std::string ProcessResult::describe() const {
  if (timed_out) {
    char limit[32];
    std::snprintf(limit, sizeof limit, "%.0f", time_limit_s);
    return std::string("ran past its time limit of ") + limit + " s and was stopped";
  }
  if (term_signal != 0) return "was killed by signal " + std::to_string(term_signal);
  return "exited with " + std::to_string(exit_code);
}

ProcessResult run_process(const ProcessSpec& spec) {
  if (spec.argv.empty()) throw ProcessError("no program to run");
  const std::string exe = executable(spec);
  if (exe.empty()) throw_cannot_run(spec, std::strerror(ENOENT));
  boost::asio::io_context io;
  std::optional<CapturePipe> out_pipe = capture_pipe(spec.out, io);
  std::optional<CapturePipe> err_pipe = capture_pipe(spec.err, io);
  std::optional<OwnedFd> out_file, err_file;
  const Output out = spec.out == Output::kSameAsStdout ? Output::kInherit : spec.out;
  const int out_fd = out_pipe ? out_pipe->write_end->get() : open_output(out, spec, out_file);
  const int err_fd = err_pipe ? err_pipe->write_end->get() : open_output(spec.err, spec, err_file);

  std::error_code ec;
  bp::child child(
      bp::exe = exe, bp::args = std::vector<std::string>(spec.argv.begin() + 1, spec.argv.end()),
      bp::env = child_environment(spec), bp::std_in < bp::null,
      ChildSetup(out_fd, err_fd, spec.err == Output::kSameAsStdout, spec.working_dir), ec);
  if (ec) throw_cannot_run(spec, ec.message());
  // Our copies of the write ends must go, or the pipes never reach end of file.
  if (out_pipe) out_pipe->write_end.reset();
  if (err_pipe) err_pipe->write_end.reset();

  ProcessResult r;
  ChildWatch watch;
  watch.pid = child.id();
  if (spec.time_limit_s > 0) {
    watch.deadline = std::chrono::steady_clock::now() +
                     std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                         std::chrono::duration<double>(spec.time_limit_s));
  }
  drain(io, out_pipe, err_pipe, r, watch);
  const int status = wait_for(child, watch);
  r.interrupted = watch.forwarded != 0;
  r.timed_out = watch.terminated_at.has_value();
  r.time_limit_s = spec.time_limit_s;
  if (status >= 0 && WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  if (status >= 0 && WIFSIGNALED(status)) r.term_signal = WTERMSIG(status);
  return r;
}

std::string log_excerpt(const std::string& log_file, size_t max_chars) {
  std::ifstream in(log_file, std::ios::binary | std::ios::ate);
  const std::streamoff size = in ? std::streamoff(in.tellg()) : 0;
  if (size <= 0) return "nothing";
  const std::streamoff from = std::max<std::streamoff>(0, size - std::streamoff(max_chars));
  std::string text(size_t(size - from), '\0');
  in.seekg(from);
  in.read(text.data(), std::streamsize(text.size()));
  // Start at a line where one starts within the excerpt's first half.
  const size_t line = from > 0 ? text.find('\n') : std::string::npos;
  if (line != std::string::npos && line < text.size() / 2) text.erase(0, line + 1);
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  for (char& c : text) {
    if ((unsigned char)c < 0x20 && c != '\n' && c != '\t') c = '?';
  }
  return std::string(from > 0 ? "\"..." : "\"") + text + "\"";
}

std::string describe_command(const std::vector<std::string>& argv) {
  std::string text;
  for (const std::string& a : argv) text += (text.empty() ? "" : " ") + shell_quote(a);
  return text;
}

}  // namespace infergate
