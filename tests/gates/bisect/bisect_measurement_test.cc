// Rounds of measurement of one commit: merged into one point of renumbered repetitions, a sweep
// refused with the way out, and the cache key following the workload's bytes, --set and --repeat.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "gates/bisect/commit_measurement.h"

using namespace infergate;
namespace fs = std::filesystem;

namespace {

std::string data(const std::string& name) {
  return std::string(INFERGATE_SOURCE_DIR) + "/tests/gates/data/" + name;
}

}  // namespace

TEST_CASE("rounds merge into one point, repetitions renumbered in order") {
  const PointResult one = merge_rounds({data("quickstart-baseline.json")});
  const PointResult two =
      merge_rounds({data("quickstart-baseline.json"), data("quickstart-candidate.json")});
  REQUIRE(two.repetitions.size() ==
          one.repetitions.size() +
              load_results(data("quickstart-candidate.json")).points[0].repetitions.size());
  for (size_t i = 0; i < two.repetitions.size(); ++i) CHECK(two.repetitions[i].index == int(i));
  CHECK(two.repetitions[0].summary == one.repetitions[0].summary);
}

TEST_CASE("a sweep is refused, saying how to judge one point") {
  CHECK_THROWS_WITH(
      merge_rounds({data("rate-sweep.json")}),
      Catch::Matchers::Contains("4 sweep points") && Catch::Matchers::Contains("--set sweep=null"));
}

TEST_CASE("the measurement key follows the workload's bytes, the --set list and --repeat") {
  const fs::path file = fs::temp_directory_path() / "infergate-bisect-key-test.json";
  std::ofstream(file) << R"({"name": "a"})";
  MeasureSpec spec;
  spec.workload_path = file.string();
  spec.repetitions = 4;
  const std::string key = measurement_key(spec);
  CHECK(key.size() == 16);
  CHECK(measurement_key(spec) == key);
  spec.repetitions = 5;
  CHECK(measurement_key(spec) != key);
  spec.repetitions = 4;
  spec.sets = {"load.rate=4"};
  CHECK(measurement_key(spec) != key);
  spec.sets.clear();
  std::ofstream(file) << R"({"name": "b"})";
  CHECK(measurement_key(spec) != key);
  fs::remove(file);
}
