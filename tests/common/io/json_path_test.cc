#include "common/io/json_path.h"

#include <catch2/catch.hpp>

namespace infergate {

TEST_CASE("a dotted path walks nested objects to the value") {
  const auto doc =
      nlohmann::json::parse(R"({"manifest": {"git": {"commit": "abc", "dirty": true}}})");
  CHECK(json_at_path(doc, "manifest.git.commit") == "abc");
  CHECK(json_at_path(doc, "manifest.git.dirty") == true);
  CHECK(json_at_path(doc, "manifest.git") == doc["manifest"]["git"]);
}

TEST_CASE("a dotted path that leaves the document gives null") {
  const auto doc = nlohmann::json::parse(R"({"a": {"b": [1, 2]}, "s": "text"})");
  CHECK(json_at_path(doc, "a.c").is_null());
  CHECK(json_at_path(doc, "a.b.0").is_null());  // arrays are not indexed
  CHECK(json_at_path(doc, "s.x").is_null());
  CHECK(json_at_path(doc, "").is_null());  // the empty key, absent here
  CHECK(json_at_path(nlohmann::json::array(), "a").is_null());
}

}  // namespace infergate
