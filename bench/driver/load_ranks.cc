#include "bench/driver/load_ranks.h"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "bench/metrics/summarize.h"
#include "common/util/clock.h"

namespace infergate {

namespace {

// Records travel as JSON text in pieces MPI's int counts can hold.
constexpr size_t kPieceBytes = size_t(1) << 28;
constexpr int64_t kMaxWireBytes = int64_t(16) << 30;

void send_text(Communicator& comm, const std::string& text, int peer) {
  const std::array<int64_t, 1> size{int64_t(text.size())};
  comm.send(size, peer);
  for (size_t at = 0; at < text.size(); at += kPieceBytes) {
    const size_t n = std::min(kPieceBytes, text.size() - at);
    comm.send(ConstCommSpan(text.data() + at, n, CommDType::kU8), peer);
  }
}

std::string recv_text(Communicator& comm, int peer) {
  std::array<int64_t, 1> size{};
  comm.recv(size, peer);
  if (size[0] < 0 || size[0] > kMaxWireBytes) {
    throw std::runtime_error("load rank " + std::to_string(peer) + " sent " +
                             std::to_string(size[0]) + " bytes of records (limit " +
                             std::to_string(kMaxWireBytes) + ")");
  }
  std::string text(static_cast<size_t>(size[0]), '\0');
  for (size_t at = 0; at < text.size(); at += kPieceBytes) {
    const size_t n = std::min(kPieceBytes, text.size() - at);
    comm.recv(CommSpan(text.data() + at, n, CommDType::kU8), peer);
  }
  return text;
}

// This rank's clock to rank 0's at local time t: the offset drifts linearly between the two
// measurements (steady clocks of two hosts run at slightly different rates).
struct ClockMap {
  ClockOffset start, end;
  int64_t start_at = 0, end_at = 0;  // local times of the two measurements

  int64_t operator()(int64_t t) const {
    if (t == 0) return 0;  // "never happened"
    const double span = double(end_at - start_at);
    const double w = span > 0 ? double(t - start_at) / span : 0;
    return t + int64_t(std::llround(double(start.offset_ns) +
                                    w * double(end.offset_ns - start.offset_ns)));
  }
};

nlohmann::json record_wire(const RequestRecord& r, const ClockMap& clock) {
  nlohmann::json times = nlohmann::json::array();
  for (const int64_t t : r.token_times_ns) times.push_back(clock(t));
  return {r.index,
          r.warmup,
          clock(r.scheduled_ns),
          clock(r.sent_ns),
          clock(r.first_token_ns),
          clock(r.finished_ns),
          r.input_tokens,
          r.output_tokens,
          r.cached_tokens,
          r.preemptions,
          int(r.status),
          r.error,
          r.session,
          r.turn,
          std::move(times)};
}

RequestRecord record_from_wire(const nlohmann::json& j) {
  RequestRecord r;
  r.index = j.at(0).get<uint64_t>();
  r.warmup = j.at(1).get<bool>();
  r.scheduled_ns = j.at(2).get<int64_t>();
  r.sent_ns = j.at(3).get<int64_t>();
  r.first_token_ns = j.at(4).get<int64_t>();
  r.finished_ns = j.at(5).get<int64_t>();
  r.input_tokens = j.at(6).get<int>();
  r.output_tokens = j.at(7).get<int>();
  r.cached_tokens = j.at(8).get<int>();
  r.preemptions = j.at(9).get<int>();
  r.status = RequestStatus(std::clamp(j.at(10).get<int>(), 0, 2));
  r.error = j.at(11).get<std::string>();
  r.session = j.at(12).get<int>();
  r.turn = j.at(13).get<int>();
  r.token_times_ns = j.at(14).get<std::vector<int64_t>>();
  return r;
}

std::string host_name() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0) return "";
  return name;
}

double ms(int64_t ns) { return double(ns) * 1e-6; }

// What rank 0's report says of one rank.
LoadRankRecord rank_report(int rank, const DriverResult& run, const ClockOffset& start,
                           const ClockOffset& end) {
  std::vector<double> lag;
  for (const RequestRecord& r : run.records) lag.push_back(ms(r.sent_ns - r.scheduled_ns));
  const StatSummary l = summarize_values(std::move(lag));
  LoadRankRecord row;
  row.rank = rank;
  row.host = host_name();
  row.requests = int64_t(run.records.size());
  row.clock_offset_ms = ms(start.offset_ns);
  row.clock_drift_ms = ms(end.offset_ns - start.offset_ns);
  row.clock_uncertainty_ms = ms(std::max(start.uncertainty_ns, end.uncertainty_ns));
  row.send_lag_ms = {l.p50, l.max};
  return row;
}

// A row another rank sent, checked as the results file's are.
LoadRankRecord peer_report(const nlohmann::json& theirs, int peer) {
  return read_load_rank(
      SectionReader(theirs.at("report"), "load rank " + std::to_string(peer), "$.report"));
}

// Every rank learns every rank's uncertainty, so all refuse together.
void refuse_uncertain_clocks(Communicator& comm, const ClockOffset& mine) {
  const std::array<int64_t, 1> send{mine.uncertainty_ns};
  std::vector<int64_t> all(size_t(comm.size()));
  comm.all_gather(send, all);
  for (int r = 0; r < comm.size(); ++r) {
    if (ms(all[size_t(r)]) <= kMaxClockUncertaintyMs) continue;
    char text[240];
    std::snprintf(text, sizeof(text),
                  "load rank %d's clock is known to rank 0's only to +-%.3f ms (the best of 16 "
                  "round trips), above the %.3g ms bound: its latencies could not be merged",
                  r, ms(all[size_t(r)]), kMaxClockUncertaintyMs);
    throw std::runtime_error(text);
  }
}

// Rank 0: its records and every other rank's on its clock, in scheduled order and numbered so
// (as one process would have sent them), with a report row per rank. The other ranks send
// theirs and keep their own result.
DriverResult merge(Communicator& comm, DriverResult local, const ClockMap& clock,
                   std::vector<LoadRankRecord>& report) {
  const LoadRankRecord row = rank_report(comm.rank(), local, clock.start, clock.end);
  nlohmann::json mine = {{"report", to_json(row)},
                         {"incomplete", local.incomplete},
                         {"sessions_completed", local.sessions_completed},
                         {"sessions_cut", local.sessions_cut},
                         {"sessions_cut_reason", local.sessions_cut_reason},
                         {"end_ns", clock(local.end_ns)},
                         {"records", nlohmann::json::array()}};
  if (comm.rank() != 0) {
    for (const RequestRecord& r : local.records) mine["records"].push_back(record_wire(r, clock));
    send_text(comm, mine.dump(), 0);
    return local;
  }
  report = {row};
  for (int peer = 1; peer < comm.size(); ++peer) {
    const nlohmann::json theirs = nlohmann::json::parse(recv_text(comm, peer));
    report.push_back(peer_report(theirs, peer));
    local.incomplete = local.incomplete || theirs.at("incomplete").get<bool>();
    local.sessions_completed += theirs.at("sessions_completed").get<int64_t>();
    local.sessions_cut += theirs.at("sessions_cut").get<int64_t>();
    if (local.sessions_cut_reason.empty()) {
      local.sessions_cut_reason = theirs.at("sessions_cut_reason").get<std::string>();
    }
    local.end_ns = std::max(local.end_ns, theirs.at("end_ns").get<int64_t>());
    for (const nlohmann::json& r : theirs.at("records")) {
      local.records.push_back(record_from_wire(r));
    }
  }
  std::stable_sort(local.records.begin(), local.records.end(),
                   [](const RequestRecord& a, const RequestRecord& b) {
                     return a.scheduled_ns != b.scheduled_ns ? a.scheduled_ns < b.scheduled_ns
                                                             : a.index < b.index;
                   });
  for (size_t i = 0; i < local.records.size(); ++i) local.records[i].index = i;
  return local;
}

}  // namespace

ClockOffset LoadRanks::measure_clock_offset(int round_trips) {
  std::array<int64_t, 1> stamp{};
  if (rank() == 0) {  // answers each rank's pings with its own time, one rank after another
    for (int peer = 1; peer < size(); ++peer) {
      for (int k = 0; k < round_trips; ++k) {
        comm_.recv(stamp, peer);
        stamp[0] = now_ns();
        comm_.send(stamp, peer);
      }
    }
    return {};
  }
  ClockOffset best{0, INT64_MAX};
  for (int k = 0; k < round_trips; ++k) {
    const int64_t sent = now_ns();
    stamp[0] = sent;
    comm_.send(stamp, 0);
    comm_.recv(stamp, 0);
    const int64_t back = now_ns();
    // Rank 0 stamped somewhere in the round trip: its middle is the best guess.
    const int64_t half = (back - sent) / 2;
    if (half < best.uncertainty_ns) best = {stamp[0] - (sent + half), half};
  }
  return best;
}

int64_t LoadRanks::agree_start_ns(const ClockOffset& offset) {
  // Far enough ahead for the broadcast and every generator thread to get going.
  std::array<int64_t, 1> start{now_ns() + 50'000'000};
  comm_.broadcast(start, 0);
  return start[0] - offset.offset_ns;
}

DriverResult LoadRanks::run(Target& target, const std::vector<BenchRequest>& requests,
                            DriverOptions options, std::vector<LoadRankRecord>& report) {
  ClockMap clock{measure_clock_offset(), {}, now_ns(), 0};
  refuse_uncertain_clocks(comm_, clock.start);
  options.rank = rank();
  options.ranks = size();
  options.start_ns = agree_start_ns(clock.start);
  DriverResult local = run_load(target, requests, options);
  clock.end = measure_clock_offset();
  clock.end_at = now_ns();
  return merge(comm_, std::move(local), clock, report);
}

}  // namespace infergate
