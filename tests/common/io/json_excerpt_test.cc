#include "common/io/json_excerpt.h"

#include <catch2/catch.hpp>
#include <string>

namespace infergate {
namespace {

using json = nlohmann::json;

// 100,000 nested arrays built by parsing, as an untrusted file would arrive.
json deeply_nested(int depth) {
  return json::parse(std::string(depth, '[') + std::string(depth, ']'));
}

TEST_CASE("a short value is written exactly as dump writes it") {
  const json v = json::parse(R"({"a":[1,2.5,"x\"y",true,null],"b":{}})");
  CHECK(json_excerpt(v) == v.dump());
  CHECK(json_excerpt(json(1e308)) == json(1e308).dump());
  CHECK(json_excerpt(json::array()) == "[]");
}

TEST_CASE("a long value is cut to the limit with an ellipsis like a cut dump") {
  json v = json::array();
  for (int i = 0; i < 1000; ++i) v.push_back(i);
  const std::string full = v.dump();
  CHECK(json_excerpt(v) == full.substr(0, 57) + "...");
  CHECK(json_excerpt(v, 10) == full.substr(0, 7) + "...");
}

TEST_CASE("100000 nested arrays render a bounded excerpt without recursion") {
  const json v = deeply_nested(100000);
  const std::string text = json_excerpt(v);
  CHECK(text == std::string(57, '[') + "...");
}

TEST_CASE("a one megabyte string or key is cut before it is escaped") {
  const std::string big(1 << 20, 'k');
  CHECK(json_excerpt(json(big)) == "\"" + std::string(56, 'k') + "...");
  const json object = {{big, 1}};
  CHECK(json_excerpt(object) == "{\"" + std::string(55, 'k') + "...");
}

TEST_CASE("a cut never splits a UTF-8 character and invalid UTF-8 does not throw") {
  std::string text;
  for (int i = 0; i < 40; ++i) text += "\xC3\xA9";  // é
  const std::string out = json_excerpt(json(text), 20);
  CHECK(out.size() <= 20);
  CHECK(json_excerpt(json(std::string("\xFF\xFE"))) == "\"\xEF\xBF\xBD\xEF\xBF\xBD\"");
}

}  // namespace
}  // namespace infergate
