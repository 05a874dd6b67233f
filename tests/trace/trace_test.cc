// Trace capture hooks NVTX, which initializes once per process on its first call. So these tests
// live in their own executable (test_trace), every test installs the hook before any NVTX call,
// and the "NVTX came first" cases run in a fresh child process.
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "bench/trace/nvtx_trace_recorder.h"
#include "common/util/clock.h"
#include "common/util/nvtx_range.h"
#include "engine/core/engine.h"
#include "engine/model/model_config.h"
#include "engine/model/synthetic_model.h"

using namespace infergate;

namespace {

std::string temp_path(const std::string& name) {
  return "/tmp/infergate_trace_test_" + std::to_string(getpid()) + "_" + name;
}

nlohmann::json read_json(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in);
  return nlohmann::json::parse(in);
}

// Events of phase `ph` named `name` (and on thread `tid` if given).
std::vector<nlohmann::json> events(const nlohmann::json& trace, const std::string& ph,
                                   const std::string& name, int64_t tid = -1) {
  std::vector<nlohmann::json> out;
  for (const nlohmann::json& e : trace.at("traceEvents")) {
    if (e.at("ph") == ph && e.at("name") == name && (tid < 0 || e.at("tid") == tid)) {
      out.push_back(e);
    }
  }
  return out;
}

#ifdef INFERGATE_HAVE_NVTX

constexpr const char* kChildEnv = "INFERGATE_TRACE_TEST_CHILD";

void require_installed() {
  std::string why;
  INFO(why);
  REQUIRE(NvtxTraceRecorder::install(&why));
}

uint32_t this_tid() { return static_cast<uint32_t>(syscall(SYS_gettid)); }

std::vector<TraceSlice> on_thread(const std::vector<TraceSlice>& slices, int64_t tid) {
  std::vector<TraceSlice> out;
  for (const TraceSlice& s : slices) {
    if (s.tid == tid) out.push_back(s);
  }
  return out;
}

const TraceSlice* find(const std::vector<TraceSlice>& slices, const std::string& name) {
  for (const TraceSlice& s : slices) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

// Runs this test binary again, fresh, with only `test_name` and kChildEnv=mode; its exit status.
int run_child(const char* test_name, const char* mode) {
  const pid_t pid = fork();
  if (pid == 0) {
    setenv(kChildEnv, mode, 1);
    // --warn NoTests: a name that matches nothing fails instead of passing vacuously.
    execl("/proc/self/exe", "test_trace", test_name, "--warn", "NoTests",
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

#endif  // INFERGATE_HAVE_NVTX

}  // namespace

#ifdef INFERGATE_HAVE_NVTX

TEST_CASE("ranges on two threads are captured with their names and domain and nesting") {
  require_installed();
  NvtxTraceRecorder recorder;
  recorder.start();
  std::vector<int64_t> tids(2);
  auto work = [&](int i) {
    tids[static_cast<size_t>(i)] = this_tid();
    nvtxNameOsThreadA(this_tid(), ("engine " + std::to_string(i)).c_str());
    NvtxRange step("step");
    { NvtxRange forward("forward"); }
    { NvtxRange sample("sample"); }
  };
  std::thread a(work, 0);
  std::thread b(work, 1);
  a.join();
  b.join();
  recorder.stop();

  const std::vector<TraceSlice> slices = recorder.slices();
  REQUIRE(tids[0] != tids[1]);
  for (int64_t tid : tids) {
    const std::vector<TraceSlice> mine = on_thread(slices, tid);
    REQUIRE(mine.size() == 3);
    const TraceSlice* step = find(mine, "step");
    const TraceSlice* forward = find(mine, "forward");
    const TraceSlice* sample = find(mine, "sample");
    REQUIRE(step);
    REQUIRE(forward);
    REQUIRE(sample);
    for (const TraceSlice* s : {step, forward, sample}) {
      CHECK(s->domain == "infergate");
      CHECK_FALSE(s->unfinished);
      CHECK_FALSE(s->mark);
    }
    CHECK(step->depth == 0);
    CHECK(forward->depth == 1);
    CHECK(sample->depth == 1);
    CHECK(step->begin_ns <= forward->begin_ns);
    CHECK(forward->end_ns <= sample->begin_ns);
    CHECK(sample->end_ns <= step->end_ns);
  }
}

TEST_CASE(
    "the Chrome trace parses and holds ranges and marks and thread names and request phases") {
  require_installed();
  NvtxTraceRecorder recorder;
  recorder.start();
  const int64_t t0 = now_ns() - 10'000'000;  // before start(): the trace's origin moves back
  nvtxNameOsThreadA(this_tid(), "driver");
  {
    NvtxRange step("step");
    nvtxRangePushA("plain range");
    nvtxMarkA("a mark");
    nvtxRangePop();
  }
  // A request: 1 ms queued, 2 ms to the first token, 3 ms decoding.
  // Disaggregated: its prefill worker's part and the KV read nest under the wait; a span from
  // outside the request (another clock) is left out.
  recorder.add_request(7, t0, t0 + 1'000'000, t0 + 3'000'000, t0 + 6'000'000, "ok",
                       {{"prefill worker", t0 + 1'100'000, t0 + 2'000'000},
                        {"KV read", t0 + 2'100'000, t0 + 2'400'000},
                        {"KV read", t0 - 5'000'000, t0 + 1'000}});
  recorder.add_request(8, t0, t0 + 500'000, 0, 0, "aborted");  // never got a token
  recorder.stop();
  const std::string path = temp_path("trace.json");
  recorder.write_chrome_trace(path);
  const nlohmann::json trace = read_json(path);
  std::remove(path.c_str());

  const int64_t tid = this_tid();
  const auto steps = events(trace, "X", "step", tid);
  REQUIRE(steps.size() == 1);
  CHECK(steps[0].at("cat") == "infergate");
  CHECK(steps[0].at("pid") == getpid());
  const auto plain = events(trace, "X", "plain range", tid);
  REQUIRE(plain.size() == 1);
  CHECK(plain[0].at("cat") == "nvtx");
  CHECK(plain[0].at("ts").get<double>() >= steps[0].at("ts").get<double>());
  CHECK(events(trace, "i", "a mark", tid).size() == 1);
  const auto names = events(trace, "M", "thread_name", tid);
  REQUIRE(names.size() == 1);
  CHECK(names[0].at("args").at("name") == "driver");
  CHECK(events(trace, "M", "process_name").size() == 1);

  const auto request = events(trace, "X", "request 7");
  REQUIRE(request.size() == 1);
  CHECK(request[0].at("args").at("status") == "ok");
  CHECK(request[0].at("dur").get<double>() == Approx(6000.0));
  const int64_t lane = request[0].at("tid").get<int64_t>();
  CHECK(lane >= kRequestLaneTidBase);
  const auto queued = events(trace, "X", "queued", lane);
  const auto waiting = events(trace, "X", "waiting for first token", lane);
  const auto decoding = events(trace, "X", "decoding", lane);
  REQUIRE(decoding.size() == 1);
  CHECK(decoding[0].at("dur").get<double>() == Approx(3000.0));
  CHECK(decoding[0].at("ts").get<double>() - request[0].at("ts").get<double>() == Approx(3000.0));
  REQUIRE(waiting.size() == 1);
  CHECK(waiting[0].at("dur").get<double>() == Approx(2000.0));
  REQUIRE(queued.size() == 1);
  CHECK(queued[0].at("dur").get<double>() == Approx(1000.0));
  const auto prefill = events(trace, "X", "prefill worker", lane);
  REQUIRE(prefill.size() == 1);
  CHECK(prefill[0].at("dur").get<double>() == Approx(900.0));
  const auto read = events(trace, "X", "KV read", lane);
  REQUIRE(read.size() == 1);
  CHECK(read[0].at("ts").get<double>() - request[0].at("ts").get<double>() == Approx(2100.0));
  // Two requests overlap, so they sit on two lanes; the unanswered one is still waiting.
  const auto other = events(trace, "X", "request 8");
  REQUIRE(other.size() == 1);
  const int64_t other_lane = other[0].at("tid").get<int64_t>();
  CHECK(other_lane != lane);
  CHECK(other[0].at("args").at("unfinished") == true);
  CHECK(events(trace, "X", "waiting for first token", other_lane).size() == 1);
}

TEST_CASE("only the recording window is kept: earlier pushes are dropped and open ranges clipped") {
  require_installed();
  nvtxRangePushA("before start");
  nvtxMarkA("not recorded");
  NvtxTraceRecorder recorder;
  recorder.start();
  nvtxRangePushA("inner");
  nvtxRangePop();
  nvtxRangePop();  // closes "before start", whose push was not recorded
  nvtxRangePushA("open at stop");
  recorder.stop();
  nvtxRangePop();
  nvtxRangePushA("after stop");
  nvtxRangePop();

  const std::vector<TraceSlice> mine = on_thread(recorder.slices(), this_tid());
  REQUIRE(mine.size() == 2);
  const TraceSlice* inner = find(mine, "inner");
  const TraceSlice* open = find(mine, "open at stop");
  REQUIRE(inner);
  REQUIRE(open);
  CHECK(inner->depth == 0);
  CHECK_FALSE(inner->unfinished);
  CHECK(open->unfinished);
  CHECK(open->end_ns >= open->begin_ns);
}

TEST_CASE("a real engine run shows its step and forward and sample ranges nested per step") {
  require_installed();
  ModelConfig model = preset_config("tiny");
  model.num_layers = 2;
  model.vocab_size = 512;
  EngineConfig config;
  config.num_threads = 2;
  Engine engine(config, make_synthetic_model(model, 3));
  SamplingParams params;
  params.max_tokens = 4;
  params.ignore_eos = true;
  NvtxTraceRecorder recorder;
  recorder.start();
  engine.generate({{5, 6, 7}, {8, 9}}, params);
  recorder.stop();

  const std::vector<TraceSlice> mine = on_thread(recorder.slices(), this_tid());
  int steps = 0;
  int forwards = 0;
  for (const TraceSlice& s : mine) {
    if (s.name == "step") ++steps;
    if (s.name != "forward" && s.name != "sample") continue;
    forwards += s.name == "forward";
    CHECK(s.depth >= 1);
    bool inside_a_step = false;
    for (const TraceSlice& step : mine) {
      inside_a_step |= step.name == "step" && step.begin_ns <= s.begin_ns &&
                       s.end_ns <= step.end_ns && step.domain == s.domain;
    }
    CHECK(inside_a_step);
  }
  CHECK(steps >= 4);  // a prefill step and one per further token
  CHECK(forwards >= steps);
}

TEST_CASE("install is refused with the reason once NVTX initialized or another tool attached") {
  const char* mode = std::getenv(kChildEnv);
  if (mode == nullptr) {  // the parent: one fresh process per situation
    const std::string self = Catch::getResultCapture().getCurrentTestName();
    CHECK(run_child(self.c_str(), "nvtx-first") == 0);
    CHECK(run_child(self.c_str(), "tool-attached") == 0);
    return;
  }
  std::string why;
  if (std::string(mode) == "nvtx-first") {
    nvtxMarkA("NVTX initializes here, with no tool");
    CHECK_FALSE(NvtxTraceRecorder::install(&why));
    CHECK(why.find("already initialized") != std::string::npos);
  } else {
    setenv("NVTX_INJECTION64_PATH", "/opt/nsight/libToolsInjection64.so", 1);
    CHECK_FALSE(NvtxTraceRecorder::install(&why));
    CHECK(why.find("NVTX_INJECTION64_PATH") != std::string::npos);
  }
  CHECK_FALSE(NvtxTraceRecorder::installed());
  // The recorder still works, for request lifetimes alone.
  NvtxTraceRecorder recorder;
  recorder.start();
  { NvtxRange ignored("step"); }
  recorder.stop();
  CHECK(recorder.slices().empty());
}

#else

TEST_CASE("without the NVTX3 headers install says so") {
  std::string why;
  CHECK_FALSE(NvtxTraceRecorder::install(&why));
  CHECK_FALSE(why.empty());
}

#endif  // INFERGATE_HAVE_NVTX

TEST_CASE("a trace without NVTX ranges still holds the requests") {
  NvtxTraceRecorder recorder;
  recorder.start();
  const int64_t t0 = now_ns();
  recorder.add_request(1, t0, t0 + 10, t0 + 20, t0 + 30, "ok");
  recorder.stop();
  const std::string path = temp_path("requests.json");
  recorder.write_chrome_trace(path);
  const nlohmann::json trace = read_json(path);
  std::remove(path.c_str());
  CHECK(events(trace, "X", "request 1").size() == 1);
}

TEST_CASE("writing a trace to an unwritable path throws naming it") {
  NvtxTraceRecorder recorder;
  recorder.start();
  recorder.stop();
  CHECK_THROWS_WITH(recorder.write_chrome_trace("/nonexistent/dir/trace.json"),
                    Catch::Contains("/nonexistent/dir/trace.json"));
}
