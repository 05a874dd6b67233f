#include "tests/http/http_test_support.h"

#include <unistd.h>
#include <filesystem>
#include <fstream>

#include "bench/dataset/dataset.h"
#include "bench/driver/run_workload.h"
#include "bench/workload/workload_parser.h"
#include "common/results/results_file.h"

namespace infergate::test {

using nlohmann::json;

std::unique_ptr<ServerProcess> start_serve(const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {INFERGATE_BINARY, "serve", "--model",   "tiny",
                                   "--port",         "0",     "--threads", "2"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return std::make_unique<ServerProcess>(argv);
}

std::unique_ptr<ServerProcess> start_echo(const std::vector<std::string>& extra) {
  std::vector<std::string> argv = {INFERGATE_HTTP_ECHO, "--port", "0"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return std::make_unique<ServerProcess>(argv);
}

Workload http_workload(const std::string& url, const json& patch) {
  json doc = {{"schema", "infergate.workload/v1"},
              {"name", "http-test"},
              {"record_requests", true},
              {"target", {{"type", "openai"}, {"url", url}}},
              {"dataset",
               {{"type", "synthetic"},
                {"input_tokens", {{"dist", "uniform"}, {"min", 8}, {"max", 32}}},
                {"output_tokens", {{"dist", "uniform"}, {"min", 4}, {"max", 12}}}}},
              {"load",
               {{"mode", "open"},
                {"rate", 20},
                {"arrival", "poisson"},
                {"num_requests", 12},
                {"warmup_requests", 2}}}};
  doc.merge_patch(patch);
  return parse_workload(doc, "http-test.json");
}

json run_and_read_back(const Workload& w) {
  RunOptions o;
  o.out_path = (std::filesystem::temp_directory_path() /
                ("infergate-http-test-" + std::to_string(::getpid()) + ".json"))
                   .string();
  o.quiet = true;
  const RunOutcome outcome = run_workload(w, o);
  std::ifstream in(o.out_path);
  json doc = json::parse(in);
  std::filesystem::remove(o.out_path);
  if (doc != outcome.results) throw std::runtime_error("the results file differs from the run's");
  // Every section an HTTP target writes (the client's counters, the server's side, a router's)
  // reads back through its typed reader as written.
  if (results_to_json(parse_results(doc, o.out_path)) != doc) {
    throw std::runtime_error("the results file does not read back as written");
  }
  return doc;
}

std::vector<BenchRequest> sent_requests(const Workload& w, int32_t vocab_size) {
  const int count = w.load.warmup_requests + w.load.num_requests;
  return make_dataset(w.dataset, count, w.dataset.seed.value_or(w.seed), vocab_size, "");
}

std::vector<json> measured_records(const json& results) {
  std::vector<json> out;
  for (const json& r : results["points"][0]["repetitions"][0]["requests"]) {
    if (!r["warmup"].get<bool>()) out.push_back(r);
  }
  return out;
}

}  // namespace infergate::test
