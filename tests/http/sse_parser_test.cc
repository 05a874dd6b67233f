// The SSE reader against a table of streams, each fed whole, byte by byte and in every
// two-piece split: the events must not depend on how the bytes arrived.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "common/http/sse_parser.h"

namespace infergate {
namespace {

struct SseCase {
  const char* label;
  std::string stream;
  std::vector<std::string> events;
  bool pending_after = false;  // bytes held back at the end
};

std::vector<SseCase> cases() {
  return {
      {"one event, LF", "data: {\"a\":1}\n\n", {"{\"a\":1}"}},
      {"CRLF line ends", "data: x\r\n\r\ndata: y\r\n\r\n", {"x", "y"}},
      {"CR line ends", "data: x\r\rdata: y\r\r", {"x", "y"}},
      {"no space after the colon", "data:x\n\n", {"x"}},
      {"only one space is stripped", "data:  x\n\n", {" x"}},
      {"comments are keep-alives", ": ping\n\n: another\ndata: x\n\n", {"x"}},
      {"other fields are skipped", "event: message\nid: 7\nretry: 10\ndata: x\n\n", {"x"}},
      {"data lines join with LF", "data: a\ndata: b\n\n", {"a\nb"}},
      {"an empty data field is an event", "data:\n\n", {""}},
      {"a field name without colon", "data\n\n", {""}},
      {"blank lines without data dispatch nothing", "\n\n\r\n", {}},
      {"[DONE] is data like any other", "data: {}\n\ndata: [DONE]\n\n", {"{}", "[DONE]"}},
      {"an unfinished event is held", "data: x\n", {}, true},
      {"an unfinished line is held", "data: {\"partial", {}, true},
      {"usage chunk then DONE, CRLF",
       "data: {\"choices\":[],\"usage\":{\"completion_tokens\":3}}\r\n\r\ndata: [DONE]\r\n\r\n",
       {"{\"choices\":[],\"usage\":{\"completion_tokens\":3}}", "[DONE]"}},
  };
}

std::vector<std::string> feed_in_pieces(const std::string& stream, const std::vector<size_t>& cuts,
                                        bool& pending) {
  SseParser parser;
  std::vector<std::string> events;
  size_t at = 0;
  for (const size_t cut : cuts) {
    parser.feed(std::string_view(stream).substr(at, cut - at), events);
    at = cut;
  }
  parser.feed(std::string_view(stream).substr(at), events);
  pending = parser.pending();
  return events;
}

TEST_CASE("SSE events are the same however the bytes are split") {
  for (const SseCase& c : cases()) {
    INFO(c.label);
    bool pending = false;
    CHECK(feed_in_pieces(c.stream, {}, pending) == c.events);
    CHECK(pending == c.pending_after);
    std::vector<size_t> every_byte;
    for (size_t i = 1; i < c.stream.size(); ++i) every_byte.push_back(i);
    CHECK(feed_in_pieces(c.stream, every_byte, pending) == c.events);
    for (size_t cut = 1; cut < c.stream.size(); ++cut) {
      INFO("split at " << cut);
      CHECK(feed_in_pieces(c.stream, {cut}, pending) == c.events);
    }
  }
}

TEST_CASE("a CRLF split between two reads ends one line, not two") {
  SseParser parser;
  std::vector<std::string> events;
  parser.feed("data: a\r", events);
  parser.feed("\ndata: b\r", events);
  parser.feed("\n\r", events);
  parser.feed("\n", events);
  REQUIRE(events == std::vector<std::string>{"a\nb"});
}

TEST_CASE("an endless SSE line is refused") {
  SseParser parser;
  std::vector<std::string> events;
  const std::string piece(1 << 20, 'x');
  REQUIRE_THROWS_WITH(
      [&] {
        for (int i = 0; i < 20; ++i) parser.feed(piece, events);
      }(),
      Catch::Contains("SSE line is longer than"));
}

}  // namespace
}  // namespace infergate
