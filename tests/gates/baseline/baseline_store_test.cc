#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "common/results/machine_key.h"
#include "gates/baseline/baseline_store.h"
#include "tests/gates/synthetic_results.h"

using namespace infergate;
using namespace infergate::gates_test;
namespace fs = std::filesystem;

namespace {

fs::path fresh_dir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("infergate-" + name);
  fs::remove_all(dir);
  return dir;
}

ResultsFile run_at(const std::string& created_at, const std::string& commit, double tpot) {
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", tpot}}}, "quickstart");
  doc["created_at"] = created_at;
  doc["manifest"]["git"]["commit"] = commit;
  return parse_results(doc, "run-" + commit + ".json");
}

}  // namespace

TEST_CASE("the machine key names the CPU, cores and GPUs, not the host") {
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", 1}}});
  doc["manifest"]["host"]["cpu_model"] = "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz";
  doc["manifest"]["gpu"]["devices"] = {{{"name", "NVIDIA H200"}, {"memory_bytes", 1}},
                                       {{"name", "NVIDIA H200"}, {"memory_bytes", 1}}};
  CHECK(machine_key(parse_results(doc, "r")) == "intel-xeon-platinum-8481c-8c-2x-nvidia-h200");
}

TEST_CASE("baseline update stores, and moves the previous baseline to history with provenance") {
  const fs::path root = fresh_dir("baselines");
  const BaselineStore store(root.string());
  const ResultsFile first = run_at("2026-11-01T10:00:00Z", std::string(40, 'a'), 20);
  const ResultsFile second = run_at("2026-11-02T10:00:00Z", std::string(40, 'b'), 21);
  const std::string path = store.update(first);
  CHECK(path == (root / "test-9000-8c" / "quickstart.json").string());
  CHECK(store.load("test-9000-8c", "quickstart").manifest["git"]["commit"] ==
        first.manifest["git"]["commit"]);
  store.update(second);
  const ResultsFile now = store.load_for(second);
  CHECK(now.points[0].repetitions[0].summary["tpot_ms"]["p95"] == 21);
  CHECK(fs::exists(root / "test-9000-8c/history/quickstart/20261101T100000Z-aaaaaaaaaaaa.json"));
  const std::vector<std::string> log = store.history("test-9000-8c", "quickstart");
  REQUIRE(log.size() == 2);
  const nlohmann::json last = nlohmann::json::parse(log[1]);
  CHECK(last["previous_commit"] == std::string(40, 'a'));
  CHECK(last["new_commit"] == std::string(40, 'b'));
  const std::vector<BaselineEntry> entries = store.list();
  REQUIRE(entries.size() == 1);
  CHECK(entries[0].workload == "quickstart");
  CHECK(entries[0].repetitions == 1);
  fs::remove_all(root);
}

TEST_CASE("an incomplete run is refused as a baseline and nothing is written") {
  const fs::path root = fresh_dir("baselines-incomplete");
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", 20}}}, "quickstart");
  doc["incomplete"] = true;
  const BaselineStore store(root.string());
  CHECK_THROWS_WITH(store.update(parse_results(doc, "partial.json")),
                    Catch::Contains("partial.json: marked incomplete"));
  CHECK_FALSE(fs::exists(root));
}

TEST_CASE("a missing baseline says where it was expected and how to make one") {
  const BaselineStore store(fresh_dir("baselines-missing").string());
  CHECK_THROWS_WITH(store.load_for(results_of({{{"tpot_ms.p95", 1}}}, "quickstart")),
                    Catch::Contains("no baseline for workload 'quickstart'") &&
                        Catch::Contains("infergate baseline update RESULT"));
}

TEST_CASE("a corrupt baseline is an error that names it, never a pass") {
  const fs::path root = fresh_dir("baselines-corrupt");
  fs::create_directories(root / "test-9000-8c");
  std::ofstream(root / "test-9000-8c/quickstart.json") << "{\"schema\": \"infergate.results/v1\", ";
  const BaselineStore store(root.string());
  CHECK_THROWS_WITH(store.load("test-9000-8c", "quickstart"),
                    Catch::Contains("corrupt baseline") && Catch::Contains("quickstart.json") &&
                        Catch::Contains("not JSON"));
  // and update refuses to bury it: the corrupt file stays for the user to restore
  CHECK_THROWS(store.update(results_of({{{"tpot_ms.p95", 1}}}, "quickstart")));
  CHECK(fs::file_size(root / "test-9000-8c/quickstart.json") > 0);
  fs::remove_all(root);
}

TEST_CASE("results files with the wrong shape are rejected with the JSON path") {
  nlohmann::json doc = results_doc({{{"tpot_ms.p95", 1}}});
  doc["points"][0]["repetitions"] = nlohmann::json::array();
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    "r.json: $.points[0].repetitions: no repetitions");
  doc["schema"] = "infergate.workload/v1";
  CHECK_THROWS_WITH(parse_results(doc, "r.json"),
                    Catch::Contains("r.json: $.schema: is 'infergate.workload/v1'"));
}
