// Reading what `git bisect log` concluded (the lines git 2.x writes).
#include <catch2/catch.hpp>

#include "gates/bisect/bisect_log.h"

using namespace infergate;

TEST_CASE("a finished bisect log names the first bad commit") {
  const std::string log =
      "# bad: [21232ea09c1e4ecfccb80b99f2129d951ec3053d] c6\n"
      "# good: [d200d20a4deb606c47974cbcc226f305e2d56f1d] c1\n"
      "git bisect start '21232ea' 'd200d20'\n"
      "# bad: [a9f8446817778882b5155660c49925e5db5c7dd6] c4\n"
      "git bisect bad a9f8446817778882b5155660c49925e5db5c7dd6\n"
      "# first bad commit: [a9f8446817778882b5155660c49925e5db5c7dd6] c4 [with brackets]\n";
  const BisectConclusion c = parse_bisect_log(log);
  REQUIRE(c.first_bad);
  CHECK(*c.first_bad == "a9f8446817778882b5155660c49925e5db5c7dd6");
  CHECK(c.candidates.empty());
}

TEST_CASE("a bisect stopped by skipped commits lists the possible first bad commits") {
  const std::string log =
      "# only skipped commits left to test\n"
      "# possible first bad commit: [21232ea09c1e4ecfccb80b99f2129d951ec3053d] c6\n"
      "# possible first bad commit: [b2acf76225a87ed37fd6f0aa57675502733fd8a4] c5\n";
  const BisectConclusion c = parse_bisect_log(log);
  CHECK_FALSE(c.first_bad);
  CHECK(c.candidates == std::vector<std::string>{"21232ea09c1e4ecfccb80b99f2129d951ec3053d",
                                                 "b2acf76225a87ed37fd6f0aa57675502733fd8a4"});
}

TEST_CASE("a log without a conclusion concludes nothing") {
  const BisectConclusion c = parse_bisect_log("# bad: [abc] x\n# good: [def] y\n");
  CHECK_FALSE(c.first_bad);
  CHECK(c.candidates.empty());
}
