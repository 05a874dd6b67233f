#include "router/routed_request.h"

#include <catch2/catch.hpp>
#include <string>

#include "common/openai/openai_error.h"
#include "router/policy/prefix_hashes.h"

namespace infergate {
namespace {

TEST_CASE("routed request: a completion's text prompt is hashed by bytes, token ids by blocks") {
  const std::string text(200, 'a');
  const RoutedRequest r =
      read_routed_request(R"({"prompt": ")" + text + R"(", "stream": true})", false, 64, 16);
  CHECK(r.stream);
  CHECK(r.prefix == text_prefix_hashes(text, 64));
  CHECK(r.prefix.size() == 3);

  const RoutedRequest ids = read_routed_request(
      R"({"prompt": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20]})", false, 64, 8);
  CHECK_FALSE(ids.stream);
  const std::vector<int32_t> tokens = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  CHECK(ids.prefix == token_prefix_hashes(tokens, 8));
}

TEST_CASE("routed request: a chat shares its prefix with a chat that goes on from it") {
  const std::string system(300, 's');
  const std::string first = R"({"messages": [{"role": "system", "content": ")" + system +
                            R"("}, {"role": "user", "content": "hi"}]})";
  const std::string later = R"({"messages": [{"role": "system", "content": ")" + system +
                            R"("}, {"role": "user", "content": [{"type": "text", "text": "hi"}]},
                              {"role": "assistant", "content": "hello"},
                              {"role": "user", "content": "more"}]})";
  const RoutedRequest a = read_routed_request(first, true, 64, 16);
  const RoutedRequest b = read_routed_request(later, true, 64, 16);
  REQUIRE(a.prefix.size() == 4);
  REQUIRE(b.prefix.size() >= a.prefix.size());
  for (size_t i = 0; i < a.prefix.size(); ++i) CHECK(a.prefix[i] == b.prefix[i]);
}

TEST_CASE("routed request: what the router cannot read is the replica's to refuse") {
  CHECK_THROWS_AS(read_routed_request("{nope", false, 64, 16), ApiError);
  CHECK_THROWS_AS(read_routed_request("[1]", false, 64, 16), ApiError);
  // Odd fields pass with no prefix: the replica names the problem.
  CHECK(read_routed_request(R"({"prompt": 5})", false, 64, 16).prefix.empty());
  CHECK(read_routed_request(R"({"prompt": [1, "x"]})", false, 64, 16).prefix.empty());
  CHECK(read_routed_request(R"({"messages": 3, "stream": "yes"})", true, 64, 16).prefix.empty());
  CHECK_FALSE(read_routed_request(R"({"stream": "yes"})", true, 64, 16).stream);
}

}  // namespace
}  // namespace infergate
