#include "bench/trace/chrome_trace.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <functional>
#include <map>
#include <queue>
#include <utility>

#include "common/io/atomic_file.h"

namespace infergate {
namespace {

std::string quoted(const std::string& text) {
  // NVTX names are truncated bytewise, so a UTF-8 sequence may be cut: replace, don't throw.
  return nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

// Microseconds with nanosecond precision: the Trace Event format's unit, Perfetto keeps the rest.
std::string micros(int64_t ns) {
  ns = std::max<int64_t>(ns, 0);
  char buffer[32];
  std::snprintf(buffer, sizeof(buffer), "%" PRId64 ".%03d", ns / 1000, static_cast<int>(ns % 1000));
  return buffer;
}

class EventWriter {
 public:
  EventWriter(const ChromeTrace& trace, std::string* out) : trace_(trace), out_(*out) {}

  void metadata(const char* what, int64_t tid, const nlohmann::json& args) {
    begin_event();
    out_ += R"({"ph":"M","name":")" + std::string(what) + R"(","pid":)" +
            std::to_string(trace_.pid) + R"(,"tid":)" + std::to_string(tid) + R"(,"args":)" +
            args.dump() + "}";
  }

  void complete(const std::string& name, const std::string& category, int64_t tid, int64_t begin_ns,
                int64_t end_ns, const nlohmann::json& args) {
    begin_event();
    out_ += R"({"ph":"X","name":)" + quoted(name) + R"(,"cat":)" + quoted(category) + R"(,"ts":)" +
            micros(begin_ns - trace_.origin_ns) + R"(,"dur":)" + micros(end_ns - begin_ns) +
            ids(tid);
    if (!args.empty()) out_ += R"(,"args":)" + args.dump();
    out_ += "}";
  }

  void instant(const std::string& name, const std::string& category, int64_t tid, int64_t ns) {
    begin_event();
    out_ += R"({"ph":"i","s":"t","name":)" + quoted(name) + R"(,"cat":)" + quoted(category) +
            R"(,"ts":)" + micros(ns - trace_.origin_ns) + ids(tid) + "}";
  }

 private:
  void begin_event() {
    out_ += first_ ? "\n" : ",\n";
    first_ = false;
  }
  std::string ids(int64_t tid) const {
    return R"(,"pid":)" + std::to_string(trace_.pid) + R"(,"tid":)" + std::to_string(tid);
  }

  const ChromeTrace& trace_;
  std::string& out_;
  bool first_ = true;
};

int64_t request_begin(const TraceRequest& r) { return r.scheduled_ns ? r.scheduled_ns : r.sent_ns; }

int64_t request_end(const TraceRequest& r, int64_t trace_end) {
  return std::max(request_begin(r), r.finished_ns ? r.finished_ns : trace_end);
}

// Greedy interval partitioning: each request goes to the lowest lane free at its start, so
// concurrent requests stack and the lane count is the peak number in flight.
std::vector<int> assign_lanes(const std::vector<TraceRequest>& requests, int64_t trace_end) {
  std::vector<size_t> order(requests.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return request_begin(requests[a]) < request_begin(requests[b]);
  });
  using Busy = std::pair<int64_t, int>;  // (end, lane)
  std::priority_queue<Busy, std::vector<Busy>, std::greater<>> busy;
  std::priority_queue<int, std::vector<int>, std::greater<>> free_lanes;
  int num_lanes = 0;
  std::vector<int> lanes(requests.size(), 0);
  for (size_t i : order) {
    const int64_t begin = request_begin(requests[i]);
    while (!busy.empty() && busy.top().first <= begin) {
      free_lanes.push(busy.top().second);
      busy.pop();
    }
    int lane = num_lanes;
    if (free_lanes.empty()) {
      ++num_lanes;
    } else {
      lane = free_lanes.top();
      free_lanes.pop();
    }
    lanes[i] = lane;
    busy.emplace(request_end(requests[i], trace_end), lane);
  }
  return lanes;
}

nlohmann::json request_args(const TraceRequest& r, bool unfinished) {
  nlohmann::json args = {{"index", r.index}, {"status", r.status}};
  if (r.scheduled_ns && r.first_token_ns)
    args["ttft_ms"] = (r.first_token_ns - r.scheduled_ns) / 1e6;
  if (r.scheduled_ns && r.finished_ns) args["e2e_ms"] = (r.finished_ns - r.scheduled_ns) / 1e6;
  if (unfinished) args["unfinished"] = true;
  return args;
}

void write_request(EventWriter& w, const TraceRequest& r, int64_t tid, int64_t trace_end) {
  const int64_t begin = request_begin(r);
  const int64_t end = request_end(r, trace_end);
  w.complete("request " + std::to_string(r.index), "request", tid, begin, end,
             request_args(r, r.finished_ns == 0));
  auto phase = [&](const char* name, int64_t from, int64_t to) {
    if (from != 0 && to > from) w.complete(name, "request", tid, from, to, nlohmann::json());
  };
  if (r.scheduled_ns) phase("queued", r.scheduled_ns, r.sent_ns);
  phase("waiting for first token", r.sent_ns, r.first_token_ns ? r.first_token_ns : end);
  phase("decoding", r.first_token_ns, end);
  // Spans timed elsewhere nest under the phase they fall in; one that would stick out of the
  // request (another clock) is left out rather than drawn misleadingly.
  for (const TracePhase& p : r.phases) {
    if (p.begin_ns >= begin && p.end_ns <= end) phase(p.name.c_str(), p.begin_ns, p.end_ns);
  }
}

void write_requests(EventWriter& w, const ChromeTrace& trace) {
  std::vector<TraceRequest> requests;
  for (const TraceRequest& r : trace.requests) {
    if (request_begin(r) != 0) requests.push_back(r);
  }
  const std::vector<int> lanes = assign_lanes(requests, trace.end_ns);
  const int num_lanes = lanes.empty() ? 0 : *std::max_element(lanes.begin(), lanes.end()) + 1;
  for (int lane = 0; lane < num_lanes; ++lane) {
    const int64_t tid = kRequestLaneTidBase + lane;
    w.metadata("thread_name", tid, {{"name", "requests " + std::to_string(lane)}});
    w.metadata("thread_sort_index", tid, {{"sort_index", 1000 + lane}});  // after the threads
  }
  for (size_t i = 0; i < requests.size(); ++i) {
    write_request(w, requests[i], kRequestLaneTidBase + lanes[i], trace.end_ns);
  }
}

void write_slices(EventWriter& w, const ChromeTrace& trace) {
  for (const TraceThread& t : trace.threads) {
    w.metadata("thread_name", t.tid, {{"name", t.name}});
  }
  for (const TraceSlice& s : trace.slices) {
    const std::string name = s.name.empty() ? "(unnamed)" : s.name;
    const std::string category = s.domain.empty() ? "nvtx" : s.domain;
    if (s.mark) {
      w.instant(name, category, s.tid, s.begin_ns);
    } else {
      nlohmann::json args = nlohmann::json::object();
      if (s.unfinished) args["unfinished"] = true;
      w.complete(name, category, s.tid, s.begin_ns, s.end_ns, args);
    }
  }
}

// One track per (device, stream), in that order, sorted between the threads and the requests.
void write_gpu_spans(EventWriter& w, const ChromeTrace& trace) {
  std::map<std::pair<uint32_t, uint32_t>, int64_t> tracks;
  for (const TraceGpuSpan& s : trace.gpu_spans) tracks.emplace(std::pair(s.device, s.stream), 0);
  int64_t next = 0;
  for (auto& [key, tid] : tracks) {
    tid = kGpuTrackTidBase + next++;
    const std::string name =
        "GPU " + std::to_string(key.first) + " stream " + std::to_string(key.second);
    w.metadata("thread_name", tid, {{"name", name}});
    w.metadata("thread_sort_index", tid, {{"sort_index", 500 + (tid - kGpuTrackTidBase)}});
  }
  for (const TraceGpuSpan& s : trace.gpu_spans) {
    w.complete(s.name, s.category, tracks.at({s.device, s.stream}), s.begin_ns, s.end_ns,
               nlohmann::json());
  }
}

}  // namespace

std::string chrome_trace_json(const ChromeTrace& trace) {
  std::string out =
      R"({"displayTimeUnit":"ns","otherData":)" + trace.other_data.dump() + R"(,"traceEvents":[)";
  EventWriter w(trace, &out);
  w.metadata("process_name", 0, {{"name", "infergate"}});
  write_slices(w, trace);
  write_gpu_spans(w, trace);
  write_requests(w, trace);
  out += "\n]}\n";
  return out;
}

void write_chrome_trace_file(const ChromeTrace& trace, const std::string& path) {
  AtomicFile file(path);
  file.write(chrome_trace_json(trace));
  file.commit();
}

}  // namespace infergate
