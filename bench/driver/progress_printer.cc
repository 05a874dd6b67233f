#include "bench/driver/progress_printer.h"

#include <cstdio>

namespace infergate {

namespace {
constexpr int kBarWidth = 24;
constexpr int64_t kPlainIntervalNs = 2'000'000'000;
}  // namespace

ProgressPrinter::ProgressPrinter(bool quiet, bool is_tty, std::string label)
    : quiet_(quiet), is_tty_(is_tty), label_(std::move(label)) {}

std::string ProgressPrinter::line(const DriverProgress& p) const {
  const double elapsed = double(p.elapsed_ns) * 1e-9;
  const double qps = elapsed > 0 ? double(p.done) / elapsed : 0;
  char buf[256];
  if (p.total > 0) {
    const double frac = double(p.done) / double(p.total);
    const double eta = qps > 0 ? double(p.total - p.done) / qps : 0;
    std::string bar(size_t(kBarWidth), ' ');
    for (int i = 0; i < int(frac * kBarWidth); ++i) bar[size_t(i)] = '=';
    std::snprintf(buf, sizeof(buf), "%s [%s] %lld/%lld  ETA %.0fs  %.1f req/s  TTFT %.1f ms",
                  label_.c_str(), bar.c_str(), (long long)p.done, (long long)p.total, eta, qps,
                  p.recent_ttft_ms);
  } else {
    std::snprintf(buf, sizeof(buf), "%s %lld done  %.0fs  %.1f req/s  TTFT %.1f ms", label_.c_str(),
                  (long long)p.done, elapsed, qps, p.recent_ttft_ms);
  }
  return buf;
}

void ProgressPrinter::update(const DriverProgress& p) {
  if (quiet_) return;
  if (is_tty_) {
    std::fprintf(stderr, "\r%s\033[K", line(p).c_str());
    drew_ = true;
  } else if (p.elapsed_ns - last_plain_ns_ >= kPlainIntervalNs) {
    std::fprintf(stderr, "%s\n", line(p).c_str());
    last_plain_ns_ = p.elapsed_ns;
  }
}

void ProgressPrinter::finish() {
  if (drew_) std::fprintf(stderr, "\n");
  drew_ = false;
}

}  // namespace infergate
