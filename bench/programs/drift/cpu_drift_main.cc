// infergate_cpu_drift: a noisy neighbour on purpose. One thread per core takes a varying share
// of it (busy for share x 20 ms, asleep for the rest) following a seeded schedule, so a quiet
// machine can be made to drift like a shared VM and the gate's power measured under it
// (docs/gates.md, "Paired A/B"). Stops at --duration-s or on SIGINT/SIGTERM.
#include <atomic>
#include <boost/program_options.hpp>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <thread>
#include <vector>

#include "bench/programs/drift/drift_schedule.h"

namespace {

std::atomic<bool> g_stop{false};
void on_signal(int) { g_stop.store(true); }

using Clock = std::chrono::steady_clock;

void steal(const std::vector<infergate::DriftSegment>& schedule, Clock::time_point start,
           double duration_s) {
  constexpr auto kSlice = std::chrono::milliseconds(20);
  volatile uint64_t sink = 0;
  while (!g_stop.load()) {
    const auto now = Clock::now();
    const double t = std::chrono::duration<double>(now - start).count();
    if (t >= duration_s) return;
    const auto busy_until = now + std::chrono::duration_cast<Clock::duration>(
                                      kSlice * infergate::share_at(schedule, t));
    while (Clock::now() < busy_until) sink = sink + 1;
    std::this_thread::sleep_until(now + kSlice);
  }
}

}  // namespace

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  infergate::DriftSettings s;
  unsigned threads = std::thread::hardware_concurrency();
  po::options_description desc("infergate_cpu_drift [options]");
  desc.add_options()("help,h", "show this help")("seed", po::value(&s.seed)->default_value(s.seed),
                                                 "schedule seed")(
      "max-share", po::value(&s.max_share)->default_value(s.max_share),
      "largest share of a core, 0..1")("min-segment-s",
                                       po::value(&s.min_segment_s)->default_value(s.min_segment_s),
                                       "shortest segment")(
      "max-segment-s", po::value(&s.max_segment_s)->default_value(s.max_segment_s),
      "longest segment")("duration-s", po::value(&s.duration_s)->default_value(s.duration_s),
                         "stop after this long")(
      "threads", po::value(&threads)->default_value(threads),
      "busy threads (default: one per core)")("print", "print the schedule and exit");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    if (threads < 1 || threads > 1024)
      throw std::invalid_argument("--threads must be in 1 .. 1024");
    const auto schedule = infergate::drift_schedule(s);
    if (vm.count("print")) {
      for (const auto& seg : schedule)
        std::printf("%8.1f s %6.1f s %5.1f%%\n", seg.start_s, seg.length_s, 100 * seg.share);
      return 0;
    }
    std::signal(SIGINT, on_signal);
    std::signal(SIGTERM, on_signal);
    const auto start = Clock::now();
    std::vector<std::thread> pool;
    for (unsigned i = 0; i < threads; ++i)
      pool.emplace_back(steal, std::cref(schedule), start, s.duration_s);
    for (std::thread& t : pool) t.join();
  } catch (const std::exception& e) {
    std::cerr << "infergate_cpu_drift: " << e.what() << "\n";
    return 2;
  }
  return 0;
}
