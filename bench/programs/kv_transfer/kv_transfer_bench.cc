// infergate_kv_transfer_bench: the KV handoff's transport alone, between two processes as a
// prefill and a decode worker are. The child exposes exports of one size after another (as
// serve --role prefill does), the parent reads each whole (as serve --role decode does) and
// times it; per size, the median of the reads. A least-squares line through the points gives
// the model docs/disaggregation.md uses: read time = latency + bytes / bandwidth. UCX picks the
// transport as in serve (UCX_TLS=tcp forces TCP; --peer-failure-detection as serve's).
//   infergate_kv_transfer_bench [--reads N] [--max-mb M] [--peer-failure-detection]
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <future>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/kv_transfer/ucx_kv_transport.h"

namespace infergate {
namespace {

struct Options {
  int reads = 20;      // per size
  double max_mb = 64;  // the largest export
  bool peer_failure = false;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    const bool has_value = i + 1 < argc;
    if (a == "--reads" && has_value) {
      o.reads = std::atoi(argv[++i]);
    } else if (a == "--max-mb" && has_value) {
      o.max_mb = std::atof(argv[++i]);
    } else if (a == "--peer-failure-detection") {
      o.peer_failure = true;
    } else {
      throw std::invalid_argument("unknown argument " + a +
                                  " (allowed: --reads N, --max-mb M, --peer-failure-detection)");
    }
  }
  if (o.reads < 1 || o.reads > 10000) throw std::invalid_argument("--reads must be in [1, 10000]");
  if (!(o.max_mb >= 0.016 && o.max_mb <= 4096)) {
    throw std::invalid_argument("--max-mb must be in [0.016, 4096]");
  }
  return o;
}

// One line of text over a pipe (the KvSource as JSON, or "ok").
void write_line(int fd, const std::string& line) {
  const std::string text = line + "\n";
  for (size_t done = 0; done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) throw std::runtime_error("pipe write failed");
    done += size_t(n);
  }
}

std::string read_line(int fd) {
  std::string line;
  char c = 0;
  while (::read(fd, &c, 1) == 1) {
    if (c == '\n') return line;
    line += c;
  }
  throw std::runtime_error("the other process is gone");
}

std::vector<size_t> sizes(double max_mb) {
  std::vector<size_t> out;
  for (size_t s = 16 * 1024; double(s) <= max_mb * 1e6; s *= 4) out.push_back(s);
  return out;
}

// The prefill side: an export per request line, kept until the reader says it is done.
int serve_exports(const Options& o, int in, int out) {
  KvTransportOptions t;
  t.peer_failure_detection = o.peer_failure;
  t.max_exported_bytes = size_t(8) << 30;
  UcxKvTransport transport(t);
  for (;;) {
    const std::string request = read_line(in);
    if (request == "quit") return 0;
    const size_t bytes = std::stoull(request);
    std::optional<KvSource> source =
        transport.expose(std::vector<std::byte>(bytes, std::byte{7}), bytes, 1);
    // The transport alone is measured: the trust fields (docs/disaggregation.md, "Trust") are
    // placeholders of the sizes a source must have, checked by no one here.
    source->block_tokens = 1;
    source->tokens_digest.assign(kKvDigestBytes, '\0');
    source->block_checksums.assign(kKvBlockChecksumBytes, '\0');
    source->signature.assign(kKvDigestBytes, '\0');
    write_line(out, kv_source_to_json(*source).dump());
  }
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

int read_exports(const Options& o, int in, int out) {
  KvTransportOptions t;
  t.peer_failure_detection = o.peer_failure;
  UcxKvTransport transport(t);
  std::vector<std::pair<double, double>> points;  // (bytes, median seconds)
  std::printf("%12s %12s %12s %12s\n", "bytes", "median ms", "MB/s", "reads");
  for (const size_t bytes : sizes(o.max_mb)) {
    std::vector<double> seconds;
    for (int i = 0; i < o.reads + 1; ++i) {  // the first read of a size warms up
      write_line(out, std::to_string(bytes));
      const KvSource source = kv_source_from_json(nlohmann::json::parse(read_line(in)), "source");
      std::promise<KvFetchResult> done;
      transport.fetch(source, 0, 1, 60, [&](KvFetchResult r) { done.set_value(std::move(r)); });
      const KvFetchResult r = done.get_future().get();
      if (!r.ok) throw std::runtime_error("read of " + std::to_string(bytes) + ": " + r.error);
      if (i > 0) seconds.push_back(r.seconds);
    }
    const double m = median(seconds);
    points.emplace_back(double(bytes), m);
    std::printf("%12zu %12.4f %12.1f %12d\n", bytes, m * 1e3, double(bytes) / m * 1e-6, o.reads);
  }
  write_line(out, "quit");
  // Least squares: seconds = latency + bytes / bandwidth.
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& [x, y] : points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const double n = double(points.size());
  const double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  const double latency = (sy - slope * sx) / n;
  std::printf("model: read time = %.1f us + bytes / %.1f MB/s\n", latency * 1e6, 1e-6 / slope);
  nlohmann::json j = {{"latency_us", latency * 1e6}, {"bandwidth_mb_s", 1e-6 / slope}};
  for (const auto& [x, y] : points) j["points"].push_back({{"bytes", x}, {"median_s", y}});
  std::cout << "json: " << j.dump() << std::endl;
  return 0;
}

}  // namespace
}  // namespace infergate

int main(int argc, char** argv) {
  try {
    const infergate::Options o = infergate::parse(argc, argv);
    int to_child[2], to_parent[2];
    if (::pipe(to_child) != 0 || ::pipe(to_parent) != 0) throw std::runtime_error("pipe failed");
    const pid_t child = ::fork();
    if (child < 0) throw std::runtime_error("fork failed");
    if (child == 0) return infergate::serve_exports(o, to_child[0], to_parent[1]);
    const int rc = infergate::read_exports(o, to_parent[0], to_child[1]);
    int status = 0;
    ::waitpid(child, &status, 0);
    return rc;
  } catch (const std::exception& e) {
    std::cerr << "infergate_kv_transfer_bench: " << e.what() << "\n";
    return 2;
  }
}
