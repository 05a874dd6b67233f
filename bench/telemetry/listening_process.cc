#include "bench/telemetry/listening_process.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <arpa/inet.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

namespace infergate {

namespace {

constexpr size_t kMaxSocketLines = 1'000'000;  // /proc/net/tcp of a very busy host
constexpr char kListenState[] = "0A";          // TCP_LISTEN in the kernel's table

// The inodes of LISTEN sockets on `port` in one of /proc/net/tcp, tcp6. Columns: sl,
// local_address (HEXADDR:HEXPORT), rem_address, st, tx_queue:rx_queue, tr:tm->when, retrnsmt,
// uid, timeout, inode.
void listening_inodes(const char* table, uint16_t port, std::set<std::string>& inodes) {
  std::ifstream in(table);
  std::string line;
  std::getline(in, line);  // the header
  for (size_t n = 0; n < kMaxSocketLines && std::getline(in, line); ++n) {
    std::istringstream fields(line);
    std::string sl, local, remote, state, queues, timer, retransmits, uid, timeout, inode;
    if (!(fields >> sl >> local >> remote >> state >> queues >> timer >> retransmits >> uid >>
          timeout >> inode)) {
      continue;
    }
    const size_t colon = local.rfind(':');
    if (state != kListenState || colon == std::string::npos) continue;
    if (std::strtoul(local.c_str() + colon + 1, nullptr, 16) == port) inodes.insert(inode);
  }
}

bool all_digits(const char* s) {
  if (*s == '\0') return false;
  for (; *s; ++s) {
    if (*s < '0' || *s > '9') return false;
  }
  return true;
}

// Whether process `pid` holds a descriptor for one of the sockets.
bool holds_socket(const std::string& pid, const std::set<std::string>& inodes) {
  const std::string dir = "/proc/" + pid + "/fd";
  DIR* fds = opendir(dir.c_str());
  if (fds == nullptr) return false;
  bool found = false;
  while (dirent* e = readdir(fds)) {
    char target[64] = {};
    const std::string link = dir + "/" + e->d_name;
    const ssize_t n = readlink(link.c_str(), target, sizeof(target) - 1);
    if (n <= 0) continue;
    const std::string_view t(target, size_t(n));
    if (t.size() > 9 && t.substr(0, 8) == "socket:[" &&
        inodes.count(std::string(t.substr(8, t.size() - 9)))) {
      found = true;
      break;
    }
  }
  closedir(fds);
  return found;
}

// A small /proc file, read raw (no locale, no stream).
std::string read_small_file(const std::string& path) {
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char buffer[1024] = {};
  const ssize_t n = read(fd, buffer, sizeof(buffer) - 1);
  close(fd);
  return n > 0 ? std::string(buffer, size_t(n)) : "";
}

}  // namespace

bool is_loopback_host(const std::string& raw) {
  std::string host = raw;
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (host == "localhost" || host == "::1") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  in6_addr v6{};
  return inet_pton(AF_INET6, host.c_str(), &v6) == 1 && IN6_IS_ADDR_LOOPBACK(&v6);
}

PidLookup find_listening_pid(uint16_t port) {
  std::set<std::string> inodes;
  listening_inodes("/proc/net/tcp", port, inodes);
  listening_inodes("/proc/net/tcp6", port, inodes);
  const std::string where = "TCP port " + std::to_string(port);
  if (inodes.empty()) return {std::nullopt, "no process listens on " + where + " (/proc/net/tcp)"};
  DIR* proc = opendir("/proc");
  if (proc == nullptr) return {std::nullopt, "/proc cannot be read"};
  std::optional<int> lowest;
  while (dirent* e = readdir(proc)) {
    if (!all_digits(e->d_name) || !holds_socket(e->d_name, inodes)) continue;
    const int pid = std::atoi(e->d_name);
    if (!lowest || pid < *lowest) lowest = pid;
  }
  closedir(proc);
  if (!lowest) {
    return {std::nullopt, "a socket listens on " + where +
                              " but no visible process holds it (another user's process?)"};
  }
  return {lowest, "the process listening on " + where};
}

std::optional<ProcessReading> read_process(int pid) {
  const std::string base = "/proc/" + std::to_string(pid);
  const std::string statm = read_small_file(base + "/statm");
  unsigned long long size = 0, resident = 0;
  if (std::sscanf(statm.c_str(), "%llu %llu", &size, &resident) != 2) return std::nullopt;
  // stat: "pid (comm) state ..." where comm may hold spaces and parentheses: fields are counted
  // from the last ')'. utime and stime are fields 14 and 15, the 12th and 13th after it.
  const std::string stat = read_small_file(base + "/stat");
  const size_t paren = stat.rfind(')');
  if (paren == std::string::npos) return std::nullopt;
  std::istringstream fields(stat.substr(paren + 1));
  std::string skip;
  long long utime = 0, stime = 0;
  for (int i = 0; i < 11 && fields >> skip; ++i) {
  }
  if (!(fields >> utime >> stime)) return std::nullopt;
  ProcessReading r;
  r.rss_bytes = double(resident) * double(sysconf(_SC_PAGESIZE));
  r.cpu_ticks = utime + stime;
  return r;
}

double clock_ticks_per_second() {
  const long ticks = sysconf(_SC_CLK_TCK);
  return ticks > 0 ? double(ticks) : 100.0;
}

}  // namespace infergate
