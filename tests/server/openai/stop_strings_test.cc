#include "server/openai/stop_strings.h"

#include <catch2/catch.hpp>

namespace infergate {
namespace {

// Streams `pieces` through and returns what was released, the stop flag and the tail.
std::string run(const std::vector<std::string>& stops, const std::vector<std::string>& pieces,
                bool* stopped = nullptr) {
  StopStrings s(stops);
  std::string out;
  for (const std::string& p : pieces) out += s.push(p);
  if (stopped) *stopped = s.stopped();
  return out + s.finish();
}

TEST_CASE("stop strings: the output ends before the first stop string, even split across tokens") {
  bool stopped = false;
  CHECK(run({"END"}, {"abc", "E", "N", "D", "more"}, &stopped) == "abc");
  CHECK(stopped);
  CHECK(run({"END"}, {"abcEN", "x"}, &stopped) == "abcENx");  // a false start is released
  CHECK_FALSE(stopped);
  CHECK(run({"xy", "b"}, {"aaxbxy"}, &stopped) == "aax");  // the earliest of several
  CHECK(run({"\n\n"}, {"line\n", "\n", "next"}) == "line");
  CHECK(run({}, {"a", "b"}) == "ab");
}

TEST_CASE("stop strings: text that may start a stop string is held back, never half-sent") {
  StopStrings s({"</s>"});
  CHECK(s.push("hello <") == "hello ");
  CHECK(s.push("/") == "");
  CHECK(s.push("p>") == "</p>");
  CHECK(s.push("</s") == "");
  CHECK(s.finish() == "</s");  // the output ended without the stop string: nothing is lost
}

TEST_CASE("stop strings: text passed before min_tokens is released whole and never matched") {
  StopStrings s({"END"});
  CHECK(s.push("ab E") == "ab ");          // "E" may begin a stop string: held back
  CHECK(s.pass("ND, END") == "END, END");  // min_tokens not reached: all of it goes out
  CHECK_FALSE(s.stopped());
  CHECK(s.push("x END y") == "x ");
  CHECK(s.stopped());
  CHECK(s.pass("more") == "");
}

}  // namespace
}  // namespace infergate
