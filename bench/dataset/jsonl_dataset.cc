#include "bench/dataset/jsonl_dataset.h"

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "bench/dataset/bounded_line.h"
#include "bench/dataset/dataset_error.h"
#include "bench/dataset/record_json.h"
#include "bench/workload/workload_limits.h"
#include "common/io/json_excerpt.h"
#include "engine/tokenizer/chat_prompt.h"

namespace infergate {

namespace {

using nlohmann::json;

constexpr size_t kMaxLineBytes = size_t(64) << 20;  // one record; ShareGPT's longest is ~1 MB

// Where in the file a record came from, for errors.
struct Location {
  const std::string& file;
  int line;
  [[noreturn]] void fail(const std::string& problem) const {
    throw DatasetError(file, line, problem);
  }
};

const json& field(const json& record, const char* key, const Location& at) {
  const auto it = record.find(key);
  if (it == record.end()) at.fail(std::string("missing field \"") + key + "\"");
  return *it;
}

int output_tokens_of(const json& record, const Location& at) {
  const json& v = field(record, "output_tokens", at);
  if (!v.is_number_integer() || v.get<int64_t>() < 1 || v.get<int64_t>() > INT32_MAX) {
    at.fail("\"output_tokens\" must be an integer >= 1, got " + json_excerpt(v));
  }
  return static_cast<int>(v.get<int64_t>());
}

const std::string& string_field(const json& record, const char* key, const Location& at) {
  const json& v = field(record, key, at);
  if (!v.is_string()) {
    at.fail(std::string("\"") + key + "\" must be a string, got " + json_excerpt(v));
  }
  return v.get_ref<const std::string&>();
}

BenchRequest tokens_record(const json& record, int32_t vocab_size, const Location& at) {
  const json& ids = field(record, "prompt_tokens", at);
  if (!ids.is_array() || ids.empty()) {
    at.fail("\"prompt_tokens\" must be a non-empty array of token ids");
  }
  BenchRequest r;
  for (size_t i = 0; i < ids.size(); ++i) {
    const json& id = ids[i];
    if (!id.is_number_integer() || id.get<int64_t>() < 0 || id.get<int64_t>() >= vocab_size) {
      at.fail("\"prompt_tokens\"[" + std::to_string(i) + "] = " + json_excerpt(id) +
              " is not a token id in [0, " + std::to_string(vocab_size) + ")");
    }
    r.prompt.push_back(static_cast<int32_t>(id.get<int64_t>()));
  }
  r.max_tokens = output_tokens_of(record, at);
  return r;
}

// A prompt's ids; an empty one (no BOS and no token spells the text) has nothing to send.
std::vector<int32_t> prompt_ids(const std::string& text, const char* what,
                                const DatasetTokenizer& tok, const Location& at) {
  std::vector<int32_t> ids = tok.tokenizer->encode(text, tok.add_bos);
  if (ids.empty()) {
    at.fail(std::string(what) + " " + json_excerpt(json(text)) +
            " has no tokens (tokenizer: " + tok.description + ")");
  }
  return ids;
}

BenchRequest text_record(const json& record, const DatasetTokenizer& tok, const Location& at) {
  BenchRequest r;
  r.prompt = prompt_ids(string_field(record, "prompt", at), "\"prompt\"", tok, at);
  r.max_tokens = output_tokens_of(record, at);
  return r;
}

// A human turn's prompt: its text, or the chat prompt a server would make of it.
std::vector<int32_t> human_turn_ids(const std::string& text, const DatasetTokenizer& tok,
                                    const Location& at) {
  if (!tok.template_conversations) return prompt_ids(text, "the human turn", tok, at);
  try {
    return chat_prompt_ids(*tok.tokenizer, tok.add_bos, *tok.chat, {{"user", text}}, true);
  } catch (const jinja::TemplateError& e) {
    at.fail(std::string("the model's chat template refused the human turn: ") + e.what());
  }
}

// The first human turn and the first gpt turn after it; nullopt when the record has none.
std::optional<BenchRequest> sharegpt_record(const json& record, const DatasetTokenizer& tok,
                                            const Location& at) {
  const json& turns = field(record, "conversations", at);
  if (!turns.is_array()) at.fail("\"conversations\" must be an array");
  if (turns.size() < 2) return std::nullopt;
  const std::string* prompt = nullptr;
  for (size_t i = 0; i < turns.size(); ++i) {
    if (!turns[i].is_object()) at.fail("\"conversations\" entries must be objects");
    const std::string& from = string_field(turns[i], "from", at);
    const std::string& value = string_field(turns[i], "value", at);
    if (!prompt && from == "human") prompt = &value;
    if (prompt && from == "gpt") {
      const size_t reply_tokens = tok.tokenizer->encode(value, /*add_bos=*/false).size();
      if (reply_tokens == 0) return std::nullopt;
      return BenchRequest{human_turn_ids(*prompt, tok, at), static_cast<int>(reply_tokens)};
    }
  }
  return std::nullopt;
}

class RecordParser {
 public:
  RecordParser(const std::string& format, int32_t vocab_size, const DatasetTokenizer* text)
      : format_(format), vocab_(vocab_size) {
    if (format != "tokens" && format != "text" && format != "sharegpt") {
      throw std::invalid_argument("dataset.format: unknown format \"" + format +
                                  "\" (allowed: tokens, text, sharegpt)");
    }
    if (format != "tokens") {
      tokenizer_ = text ? *text : byte_dataset_tokenizer(vocab_size, "no model tokenizer given");
    }
  }

  std::optional<BenchRequest> parse(const std::string& line, const Location& at) const {
    const json record = parse_record_json(line, at.file, at.line);
    if (!record.is_object()) at.fail("expected a JSON object, got " + json_excerpt(record));
    if (format_ == "tokens") return tokens_record(record, vocab_, at);
    if (format_ == "text") return text_record(record, *tokenizer_, at);
    return sharegpt_record(record, *tokenizer_, at);
  }

 private:
  std::string format_;
  int32_t vocab_;
  std::optional<DatasetTokenizer> tokenizer_;  // text and sharegpt
};

}  // namespace

std::string resolve_dataset_path(const std::string& path, const std::string& base_dir) {
  const std::filesystem::path p(path);
  if (p.is_absolute() || base_dir.empty()) return path;
  return (std::filesystem::path(base_dir) / p).string();
}

std::vector<BenchRequest> load_jsonl_dataset(const std::string& file, const std::string& format,
                                             int count, int32_t vocab_size,
                                             const DatasetTokenizer* text) {
  const RecordParser parser(format, vocab_size, text);
  std::ifstream in(file);
  if (!in) throw DatasetError(file, 0, "cannot open the dataset file");
  std::vector<BenchRequest> records;
  std::string line;
  int64_t skipped = 0;  // sharegpt conversations without a human turn answered
  for (int n = 1; read_bounded_line(in, line, kMaxLineBytes, file, n, "record") &&
                  static_cast<int>(records.size()) < count;
       ++n) {
    if (blank_line(line)) continue;
    if (auto r = parser.parse(line, Location{file, n})) {
      records.push_back(std::move(*r));
    } else {
      ++skipped;
    }
  }
  if (in.bad()) throw DatasetError(file, 0, "read error");
  if (skipped > 0) {  // said, as a trace's unusable records are: the file may not be what we think
    std::cerr << "dataset " << file << ": " << skipped
              << " conversations without a human turn answered by a gpt turn were left out\n";
  }
  if (records.empty() && count > 0) {
    throw DatasetError(file, 0, "no usable records (format \"" + format + "\")");
  }
  std::vector<BenchRequest> requests;
  requests.reserve(static_cast<size_t>(count));
  int64_t tokens = 0;
  for (int i = 0; i < count; ++i) {
    const BenchRequest& r = records[static_cast<size_t>(i) % records.size()];
    tokens += int64_t(r.prompt.size());
    if (tokens > kMaxDatasetTokens) {
      throw DatasetError(file, 0,
                         std::to_string(count) + " requests hold more than " +
                             std::to_string(kMaxDatasetTokens) +
                             " prompt tokens in memory (the dataset limit); ask for fewer "
                             "requests or shorter prompts");
    }
    requests.push_back(r);
  }
  return requests;
}

}  // namespace infergate
