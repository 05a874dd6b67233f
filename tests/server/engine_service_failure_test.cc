// The engine service when a step fails beyond what the engine contains: every request in flight
// ends with an error, later submissions are refused naming the cause, and the failure handler
// is told once (serve then exits 70: docs/server.md, "A failing engine step").
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "engine/model/model_loader.h"
#include "engine/service/engine_service.h"

using namespace infergate;

namespace {

SamplingParams long_answer() {
  SamplingParams s;
  s.temperature = 0;
  s.max_tokens = 200;
  s.ignore_eos = true;
  return s;
}

// Collects one request's events; `ended` is set by its last.
struct Collected {
  std::mutex mutex;
  std::vector<ServiceEvent> events;
  std::promise<void> ended;

  EventSink sink() {
    return [this](ServiceEvent e) {
      const bool last = e.refusal != Refusal::kNone || e.output.finished;
      {
        std::lock_guard<std::mutex> lock(mutex);
        events.push_back(std::move(e));
      }
      if (last) ended.set_value();
    };
  }
};

}  // namespace

TEST_CASE("an engine failure ends every request with an error and refuses later ones") {
  EngineConfig c;
  c.num_threads = 1;
  c.debug_inject_step_error_every = 5;
  c.debug_inject_step_error_fatal = true;
  EngineService service(std::make_unique<Engine>(c, load_model({})));
  std::promise<std::string> told;
  int calls = 0;
  service.set_failure_handler([&](const std::string& cause) {
    if (++calls == 1) told.set_value(cause);
  });
  Collected a, b;
  service.submit("a", {1, 2, 3}, long_answer(), a.sink());
  service.submit("b", {4, 5, 6, 7, 8}, long_answer(), b.sink());
  REQUIRE(a.ended.get_future().wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  REQUIRE(b.ended.get_future().wait_for(std::chrono::seconds(60)) == std::future_status::ready);
  for (Collected* x : {&a, &b}) {
    const ServiceEvent& last = x->events.back();
    CHECK(last.output.finished);
    CHECK(last.output.finish_reason == FinishReason::kError);
    CHECK(last.output.step_failed);
    CHECK(last.output.error.find("debug.inject_step_error_fatal") != std::string::npos);
  }
  auto cause = told.get_future();
  REQUIRE(cause.wait_for(std::chrono::seconds(10)) == std::future_status::ready);
  CHECK(cause.get().find("after the scheduler's update") != std::string::npos);
  CHECK(service.failure().find("after the scheduler's update") != std::string::npos);

  Collected later;
  service.submit("later", {1, 2}, long_answer(), later.sink());
  REQUIRE(later.events.size() == 1);
  CHECK(later.events[0].refusal == Refusal::kShuttingDown);
  CHECK(later.events[0].error.find("the engine failed") != std::string::npos);
  service.stop();
  CHECK(calls == 1);
}
