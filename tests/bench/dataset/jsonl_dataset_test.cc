// JSONL datasets: the three formats parse, short files cycle, and every refusal names the file
// and the line.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/dataset/dataset.h"
#include "bench/dataset/dataset_error.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/vocabulary.h"

using namespace infergate;

namespace {

constexpr int32_t kVocab = 512;

// A fresh directory per test case, removed afterwards.
class TempDir {
 public:
  TempDir() {
    static int counter = 0;
    path_ = std::filesystem::temp_directory_path() /
            ("infergate_jsonl_" + std::to_string(::getpid()) + "_" + std::to_string(counter++));
    std::filesystem::create_directories(path_);
  }
  ~TempDir() { std::filesystem::remove_all(path_); }

  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return name;
  }
  std::string dir() const { return path_.string(); }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

DatasetSpec jsonl(const std::string& path, const std::string& format) {
  DatasetSpec spec;
  spec.type = "jsonl";
  spec.path = path;
  spec.format = format;
  return spec;
}

std::vector<int32_t> encode(const std::string& text, bool add_bos) {
  return ByteTokenizer(synthetic_vocabulary(kVocab)).encode(text, add_bos);
}

// The DatasetError message of loading `text` in `format`.
std::string error_of(const std::string& text, const std::string& format) {
  TempDir dir;
  dir.write("bad.jsonl", text);
  try {
    make_dataset(jsonl("bad.jsonl", format), 10, 0, kVocab, dir.dir());
  } catch (const DatasetError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("jsonl tokens records are used verbatim, in order, cycling when short",
          "[bench][dataset]") {
  TempDir dir;
  dir.write("d.jsonl",
            "{\"prompt_tokens\": [1, 5, 6], \"output_tokens\": 4}\n"
            "\n"
            "{\"prompt_tokens\": [0, 511], \"output_tokens\": 1, \"extra\": true}\n");
  const auto requests = make_dataset(jsonl("d.jsonl", "tokens"), 5, 0, kVocab, dir.dir());
  REQUIRE(requests.size() == 5);
  CHECK(requests[0].prompt == std::vector<int32_t>{1, 5, 6});
  CHECK(requests[0].max_tokens == 4);
  CHECK(requests[1].prompt == std::vector<int32_t>{0, 511});
  CHECK(requests[1].max_tokens == 1);
  CHECK(requests[2].prompt == requests[0].prompt);
  CHECK(requests[3].prompt == requests[1].prompt);
  CHECK(requests[4].prompt == requests[0].prompt);
  CHECK(make_dataset(jsonl("d.jsonl", "tokens"), 1, 0, kVocab, dir.dir()).size() == 1);
}

TEST_CASE("jsonl text records are tokenized byte by byte after BOS", "[bench][dataset]") {
  TempDir dir;
  dir.write("t.jsonl", "{\"prompt\": \"h\\u00e9llo\", \"output_tokens\": 9}\n");
  // An absolute path does not need base_dir.
  const auto requests = make_dataset(jsonl(dir.file("t.jsonl"), "text"), 1, 0, kVocab, "/x");
  REQUIRE(requests.size() == 1);
  CHECK(requests[0].prompt == encode("h\xc3\xa9llo", true));
  CHECK(requests[0].prompt.size() == 7);  // BOS + 6 UTF-8 bytes
  CHECK(requests[0].max_tokens == 9);
}

TEST_CASE("jsonl sharegpt records ask the first human turn for the first gpt reply's length",
          "[bench][dataset]") {
  TempDir dir;
  dir.write("s.jsonl",
            // One turn: skipped.
            "{\"conversations\": [{\"from\": \"human\", \"value\": \"alone\"}]}\n"
            // A system turn first, then the pair; later turns are ignored.
            "{\"conversations\": [{\"from\": \"system\", \"value\": \"be brief\"},"
            " {\"from\": \"human\", \"value\": \"hi\"}, {\"from\": \"gpt\", \"value\": \"hello!\"},"
            " {\"from\": \"human\", \"value\": \"more\"}, {\"from\": \"gpt\", \"value\": \"x\"}]}\n"
            // No gpt reply after the human turn: skipped.
            "{\"conversations\": [{\"from\": \"gpt\", \"value\": \"a\"},"
            " {\"from\": \"human\", \"value\": \"b\"}]}\n"
            "{\"conversations\": [{\"from\": \"human\", \"value\": \"q\"},"
            " {\"from\": \"gpt\", \"value\": \"abc\"}]}\n");
  const auto requests = make_dataset(jsonl("s.jsonl", "sharegpt"), 3, 0, kVocab, dir.dir());
  REQUIRE(requests.size() == 3);
  CHECK(requests[0].prompt == encode("hi", true));
  CHECK(requests[0].max_tokens == 6);
  CHECK(requests[1].prompt == encode("q", true));
  CHECK(requests[1].max_tokens == 3);
  CHECK(requests[2].prompt == requests[0].prompt);
}

TEST_CASE("jsonl errors name the file and the line", "[bench][dataset]") {
  const std::string good = "{\"prompt_tokens\": [1], \"output_tokens\": 2}\n";
  // Syntax errors in our words: where in the line and what was expected, no library prefix.
  CHECK_THAT(error_of(good + "{\"prompt_tokens\": [1,}\n", "tokens"),
             Catch::Contains("bad.jsonl:2: not JSON at byte 22 of the line: unexpected '}'") &&
                 Catch::Contains("expected") && !Catch::Contains("json.exception"));
  CHECK_THAT(error_of("{\"prompt_tokens\": [1], \"output_tokens\": 1e999}\n", "tokens"),
             Catch::Contains("bad.jsonl:1: not a usable JSON record: \"output_tokens\" is a number "
                             "out of range") &&
                 !Catch::Contains("json.exception"));
  CHECK_THAT(
      error_of("{\"prompt_tokens\": [1], \"output_tokens\": 2, \"output_tokens\": 9}\n", "tokens"),
      Catch::Contains("bad.jsonl:1: not a usable JSON record: key \"output_tokens\" "
                      "appears twice"));
  // 100,000 levels of nesting: refused by its line, never built (nor dropped unsaid).
  const std::string deep(100'000, '[');
  for (const std::string format : {"tokens", "text", "sharegpt"}) {
    CHECK_THAT(error_of("\n{\"conversations\": " + deep + "\n", format),
               Catch::Contains("bad.jsonl:2: not a usable JSON record: nests deeper than the "
                               "limit of 128 levels"));
  }
  CHECK_THAT(error_of(good + good + "{\"output_tokens\": 2}\n", "tokens"),
             Catch::Contains("bad.jsonl:3: missing field \"prompt_tokens\""));
  CHECK_THAT(error_of("{\"prompt_tokens\": \"1 2\", \"output_tokens\": 2}\n", "tokens"),
             Catch::Contains("bad.jsonl:1: \"prompt_tokens\" must be a non-empty array"));
  CHECK_THAT(error_of("{\"prompt_tokens\": [1, 512], \"output_tokens\": 2}\n", "tokens"),
             Catch::Contains("bad.jsonl:1: \"prompt_tokens\"[1] = 512 is not a token id in "
                             "[0, 512)"));
  CHECK_THAT(error_of("{\"prompt_tokens\": [-1], \"output_tokens\": 2}\n", "tokens"),
             Catch::Contains("bad.jsonl:1: \"prompt_tokens\"[0] = -1"));
  CHECK_THAT(error_of("{\"prompt_tokens\": [1], \"output_tokens\": 2.5}\n", "tokens"),
             Catch::Contains("bad.jsonl:1: \"output_tokens\" must be an integer >= 1, got 2.5"));
  CHECK_THAT(error_of("\n\n{\"prompt\": 7, \"output_tokens\": 2}\n", "text"),
             Catch::Contains("bad.jsonl:3: \"prompt\" must be a string, got 7"));
  CHECK_THAT(error_of("[1, 2]\n", "text"), Catch::Contains("bad.jsonl:1: expected a JSON object"));
  CHECK_THAT(error_of("{\"conversations\": {}}\n", "sharegpt"),
             Catch::Contains("bad.jsonl:1: \"conversations\" must be an array"));
  CHECK_THAT(error_of("{\"conversations\": [{\"from\": \"human\"}, {}]}\n", "sharegpt"),
             Catch::Contains("bad.jsonl:1: missing field \"value\""));
}

TEST_CASE("jsonl files that are missing or hold no usable record are refused by name",
          "[bench][dataset]") {
  CHECK_THAT(error_of("\n\n", "tokens"), Catch::Contains("bad.jsonl: no usable records"));
  CHECK_THAT(error_of("{\"conversations\": []}\n", "sharegpt"),
             Catch::Contains("bad.jsonl: no usable records"));
  TempDir dir;
  try {
    make_dataset(jsonl("missing.jsonl", "tokens"), 1, 0, kVocab, dir.dir());
    FAIL("no error");
  } catch (const DatasetError& e) {
    CHECK(e.file() == dir.file("missing.jsonl"));
    CHECK_THAT(e.what(), Catch::Contains("cannot open"));
  }
  CHECK_THROWS_AS(make_dataset(jsonl("x.jsonl", "csv"), 1, 0, kVocab, dir.dir()),
                  std::invalid_argument);
}
