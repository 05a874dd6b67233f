#include "server/model_file_fault.h"

#include <signal.h>
#include <unistd.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace infergate {

namespace {

// Everything the handler reads is written before it is installed, into fixed storage: a
// signal handler may not allocate or lock.
constexpr int kMaxMappings = 256;
constexpr size_t kMaxMessage = 1024;

struct Mapping {
  uintptr_t begin, end;
};
Mapping g_mappings[kMaxMappings];
int g_num_mappings = 0;
char g_message[kMaxMessage];
size_t g_message_size = 0;

void on_sigbus(int, siginfo_t* info, void*) {
  const auto at = reinterpret_cast<uintptr_t>(info->si_addr);
  for (int i = 0; i < g_num_mappings; ++i) {
    if (at >= g_mappings[i].begin && at < g_mappings[i].end) {
      [[maybe_unused]] const ssize_t written = ::write(STDERR_FILENO, g_message, g_message_size);
      ::_exit(kModelFileFaultExit);
    }
  }
  // Not the model's pages: a fault of another kind, which must crash as it would have.
  ::signal(SIGBUS, SIG_DFL);
}

bool under(const std::string& file, const std::string& path) {
  return file == path || (file.size() > path.size() && file.compare(0, path.size(), path) == 0 &&
                          file[path.size()] == '/');
}

// The address ranges /proc/self/maps shows for files at or under `path`.
void find_mappings(const std::string& path) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (g_num_mappings < kMaxMappings && std::getline(maps, line)) {
    std::istringstream fields(line);
    std::string range, perms, offset, dev, inode, file;
    fields >> range >> perms >> offset >> dev >> inode;
    std::getline(fields >> std::ws, file);
    if (file.empty() || !under(file, path)) continue;
    const size_t dash = range.find('-');
    g_mappings[g_num_mappings++] = {std::stoull(range.substr(0, dash), nullptr, 16),
                                    std::stoull(range.substr(dash + 1), nullptr, 16)};
  }
}

}  // namespace

int exit_clearly_on_model_file_fault(const std::string& path) {
  std::error_code ec;
  const std::string canonical = std::filesystem::canonical(path, ec).string();
  if (ec) return 0;
  find_mappings(canonical);
  if (g_num_mappings == 0) return 0;
  const std::string message =
      "infergate serve: SIGBUS reading the memory-mapped model " + canonical +
      ": the file was truncated or rewritten while being served; exiting with status " +
      std::to_string(kModelFileFaultExit) + " (replace model files by renaming a new file " +
      "into place, never by writing over the served one)\n";
  g_message_size = std::min(message.size(), kMaxMessage);
  std::memcpy(g_message, message.data(), g_message_size);
  g_message[g_message_size - 1] = '\n';
  struct sigaction action {};
  action.sa_sigaction = on_sigbus;
  action.sa_flags = SA_SIGINFO;
  sigemptyset(&action.sa_mask);
  sigaction(SIGBUS, &action, nullptr);
  return g_num_mappings;
}

}  // namespace infergate
