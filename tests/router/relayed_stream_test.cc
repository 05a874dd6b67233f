#include "router/relayed_stream.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace infergate {
namespace {

using nlohmann::json;

std::string chunk(const char* id, int created, std::vector<int> ids, const char* finish = nullptr,
                  int index = 0) {
  json c = {{"id", id},
            {"created", created},
            {"choices", {{{"index", index}, {"token_ids", ids}, {"text", "x"}}}}};
  c["choices"][0]["finish_reason"] = finish ? json(finish) : json();
  return c.dump();
}

TEST_CASE("relayed stream: the first replica's events pass unchanged, their tokens noted") {
  RelayedStream s;
  const std::string first = chunk("cmpl-1", 100, {5, 6});
  CHECK(s.relay(first) == first);
  CHECK(s.relay(chunk("cmpl-1", 100, {7})) == chunk("cmpl-1", 100, {7}));
  CHECK(s.ids() == std::vector<int32_t>{5, 6, 7});
  CHECK_FALSE(s.finished());
  CHECK(s.relay("not json") == std::nullopt);
  CHECK(s.relay("[3]") == std::nullopt);
}

TEST_CASE("relayed stream: after a migration the events keep the first id and created") {
  RelayedStream s;
  s.relay(chunk("cmpl-1", 100, {5}));
  s.migrating(42);
  CHECK(s.broke_ns() == 42);
  const json resumed = json::parse(*s.relay(chunk("cmpl-9", 200, {6}, "length")));
  CHECK(resumed["id"] == "cmpl-1");
  CHECK(resumed["created"] == 100);
  CHECK(s.ids() == std::vector<int32_t>{5, 6});
  CHECK(s.finished());
  CHECK(s.relay("[DONE]") == "[DONE]");
  CHECK(s.done_sent());
}

TEST_CASE("relayed stream: the resume body asks for the rest after the relayed tokens") {
  RelayedStream s;
  const std::string original = R"({"prompt": "hi", "max_tokens": 9, "stream": true})";
  CHECK(s.resume_body(original) == original);  // nothing relayed: the request as it came
  s.relay(chunk("cmpl-1", 100, {5, 6}));
  const json body = json::parse(s.resume_body(original));
  CHECK(body["resume_token_ids"] == json({5, 6}));
  CHECK(body["prompt"] == "hi");
  CHECK(body["max_tokens"] == 9);
}

TEST_CASE("relayed stream: n choices finish when the last of them does, and no ids are noted") {
  RelayedStream s(2);
  s.relay(chunk("cmpl-1", 100, {5}, nullptr, 0));
  s.relay(chunk("cmpl-1", 100, {8}, nullptr, 1));
  s.relay(chunk("cmpl-1", 100, {6}, "length", 0));
  CHECK_FALSE(s.finished());  // choice 1 goes on: a replica failing now broke the answer
  s.relay(chunk("cmpl-1", 100, {9}, "stop", 1));
  CHECK(s.finished());
  CHECK(s.ids().empty());  // several choices cannot be resumed from one list of ids
  s.relay(chunk("cmpl-1", 100, {9}, "stop", 7));  // an index past n changes nothing
  CHECK(s.finished());
}

}  // namespace
}  // namespace infergate
