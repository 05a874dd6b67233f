// The engine service's part of the prefill/decode handoff: the prompt's KV on a request's last
// event, the cached-prefix count on the engine thread, and KV adopted before admission.
#include <catch2/catch.hpp>
#include <future>
#include <memory>
#include <vector>

#include "engine/model/model_loader.h"
#include "engine/service/engine_service.h"

using namespace infergate;

namespace {

EngineConfig handoff_config() {
  EngineConfig c;
  c.num_threads = 1;
  c.block_size = 16;
  c.prefix_caching = true;
  return c;
}

std::vector<int32_t> prompt_of(int length) {
  std::vector<int32_t> p;
  for (int i = 0; i < length; ++i) p.push_back(int32_t(i * 37 % 900 + 3));
  return p;
}

SamplingParams greedy(int max_tokens) {
  SamplingParams s;
  s.temperature = 0;
  s.max_tokens = max_tokens;
  s.ignore_eos = true;
  return s;
}

// Runs one request to its end; every event it got.
std::vector<ServiceEvent> run(EngineService& service, const std::string& id,
                              const std::vector<int32_t>& prompt, int max_tokens,
                              KvHandoff handoff = {}) {
  std::vector<ServiceEvent> events;
  std::promise<void> done;
  service.submit(
      id, prompt, greedy(max_tokens),
      [&](ServiceEvent e) {
        const bool last = e.refusal != Refusal::kNone || e.output.finished;
        events.push_back(std::move(e));
        if (last) done.set_value();
      },
      std::move(handoff));
  done.get_future().wait();
  return events;
}

std::vector<int32_t> tokens(const std::vector<ServiceEvent>& events) {
  std::vector<int32_t> out;
  for (const ServiceEvent& e : events) {
    out.insert(out.end(), e.output.token_ids.begin(), e.output.token_ids.end());
  }
  return out;
}

int cached(EngineService& service, const std::vector<int32_t>& prompt) {
  std::promise<int> count;
  service.count_cached_prefix(prompt, [&](int n) { count.set_value(n); });
  return count.get_future().get();
}

}  // namespace

TEST_CASE("the engine service exports a prompt's KV on its last event and adopts it elsewhere",
          "[server]") {
  const ModelWeights weights = load_model({});
  const std::vector<int32_t> prompt = prompt_of(50);
  EngineService colocated(std::make_unique<Engine>(handoff_config(), weights));
  const std::vector<int32_t> expected = tokens(run(colocated, "c", prompt, 6));

  EngineService prefill(std::make_unique<Engine>(handoff_config(), weights));
  const std::vector<ServiceEvent> first = run(prefill, "p", prompt, 1, {true, nullptr});
  REQUIRE(first.back().exported_kv);
  CHECK(first.back().exported_kv->num_blocks == 50 / 16);
  CHECK(cached(prefill, prompt) == 3);

  EngineService decode(std::make_unique<Engine>(handoff_config(), weights));
  CHECK(cached(decode, prompt) == 0);
  const std::vector<ServiceEvent> rest =
      run(decode, "d", prompt, 6, {false, first.back().exported_kv});
  CHECK(rest.front().kv_blocks_imported == 3);
  CHECK(tokens(rest) == expected);
  CHECK(cached(decode, prompt) == 3);
}

TEST_CASE("a request refused after its KV was offered still gets its refusal", "[server]") {
  const ModelWeights weights = load_model({});
  EngineService prefill(std::make_unique<Engine>(handoff_config(), weights));
  const std::vector<int32_t> prompt = prompt_of(40);
  const auto exported = run(prefill, "p", prompt, 1, {true, nullptr}).back().exported_kv;
  REQUIRE(exported);
  auto wrong = std::make_shared<KvBlocks>(*exported);
  wrong->block_nbytes += 1;  // another model's blocks
  EngineService decode(std::make_unique<Engine>(handoff_config(), weights));
  const std::vector<ServiceEvent> events = run(decode, "d", prompt, 4, {false, wrong});
  REQUIRE(events.size() == 1);
  CHECK(events[0].refusal == Refusal::kInvalid);
  CHECK_THAT(events[0].error, Catch::Contains("another model, block size or KV dtype"));
}
