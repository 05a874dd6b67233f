#include "engine/model/hf_gguf_vocabulary.h"

#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <vector>

#include "common/io/json_file.h"
#include "engine/tokenizer/gguf_pre_tokenizers.h"
#include "engine/tokenizer/hf_tokenizer_json.h"
#include "engine/tokenizer/pre_tokenizer.h"

namespace infergate {

namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& file, const std::string& at, const std::string& why) {
  throw std::invalid_argument(file + ": " + at + ": " + why +
                              "; GGUF holds byte-level BPE split by a named pre-tokenizer");
}

bool is_type(const json& j, const char* type) {
  return j.is_object() && j.value("type", std::string()) == type;
}

// A Split step GGUF can name: a regex pattern, each match a piece.
std::string split_pattern(const json& step, const std::string& file, const std::string& at) {
  const json pattern = step.value("pattern", json());
  if (!is_type(step, "Split") || !pattern.is_object() || !pattern.contains("Regex") ||
      step.value("behavior", std::string()) != "Isolated" || step.value("invert", false)) {
    refuse(file, at, "only Split steps with a Regex pattern, behavior Isolated, are expressible");
  }
  return pattern["Regex"].get<std::string>();
}

// The split patterns of a byte-level pre-tokenizer: ByteLevel with its own (GPT-2's) regex, or a
// sequence of Split steps ending in ByteLevel without one.
std::vector<std::string> split_patterns(const json& pre, const std::string& file) {
  const auto byte_level = [](const json& step, bool own_regex) {
    return is_type(step, "ByteLevel") && !step.value("add_prefix_space", false) &&
           step.value("use_regex", true) == own_regex;
  };
  if (byte_level(pre, true)) return {kGpt2SplitPattern};
  if (!is_type(pre, "Sequence") || !pre.contains("pretokenizers") ||
      !pre["pretokenizers"].is_array() || pre["pretokenizers"].empty() ||
      !byte_level(pre["pretokenizers"].back(), false)) {
    refuse(file, "$.pre_tokenizer",
           "not ByteLevel, nor Split steps followed by ByteLevel without its regex");
  }
  const json& steps = pre["pretokenizers"];
  std::vector<std::string> patterns;
  for (size_t i = 0; i + 1 < steps.size(); ++i) {
    patterns.push_back(
        split_pattern(steps[i], file, "$.pre_tokenizer.pretokenizers[" + std::to_string(i) + "]"));
  }
  return patterns;
}

void check_normalizer(const json& normalizer, const std::string& file) {
  if (normalizer.is_null() || is_type(normalizer, "NFC")) return;
  const bool empty_sequence = is_type(normalizer, "Sequence") &&
                              normalizer.value("normalizers", json::array()) == json::array();
  if (empty_sequence) return;
  refuse(file, "$.normalizer", "GGUF has no normalizer (only NFC is let go, as llama.cpp does)");
}

std::string merge_text(const json& merge) {
  if (merge.is_string()) return merge.get<std::string>();
  return merge.at(0).get<std::string>() + " " + merge.at(1).get<std::string>();
}

}  // namespace

Vocabulary gguf_vocabulary_of_hf(const std::string& dir, int32_t vocab_size) {
  const HfTokenizerFiles files = load_hf_tokenizer(dir);  // the whole pipeline, checked
  const std::string file = (std::filesystem::path(dir) / "tokenizer.json").string();
  const json doc = read_json_file(file);
  const json& model = doc.at("model");
  if (model.value("byte_fallback", false)) {
    refuse(file, "$.model.byte_fallback", "SentencePiece-style BPE (byte fallback) is not written");
  }
  check_normalizer(doc.value("normalizer", json()), file);
  const std::vector<std::string> patterns =
      split_patterns(doc.value("pre_tokenizer", json()), file);
  const std::optional<std::string> pre =
      gguf_pre_tokenizer_name(patterns, model.value("ignore_merges", false));
  if (!pre) refuse(file, "$.pre_tokenizer", "no tokenizer.ggml.pre name stands for its patterns");
  const int32_t ids = files.tokenizer->vocab_size();
  if (ids > vocab_size) {
    throw std::invalid_argument(file + ": " + std::to_string(ids) +
                                " token ids, more than the model's vocab_size " +
                                std::to_string(vocab_size));
  }
  Vocabulary v;
  v.model = "gpt2";
  v.pre = *pre;
  for (int32_t id = 0; id < vocab_size; ++id) v.tokens.push_back("[PAD" + std::to_string(id) + "]");
  v.types.assign(size_t(vocab_size), TokenType::kUnused);
  v.scores.assign(size_t(vocab_size), 0.0f);
  for (const auto& [piece, id] : model.at("vocab").items()) {
    v.tokens[id.get<size_t>()] = piece;
    v.types[id.get<size_t>()] = TokenType::kNormal;
  }
  for (const json& t : doc.value("added_tokens", json::array())) {
    const size_t id = t.at("id").get<size_t>();
    v.tokens[id] = t.at("content").get<std::string>();
    v.types[id] = t.value("special", false) ? TokenType::kControl : TokenType::kUserDefined;
  }
  for (const json& m : model.at("merges")) v.merges.push_back(merge_text(m));
  v.bos_id = files.tokenizer->bos_id();
  v.eos_id = files.tokenizer->eos_id();
  v.unk_id = -1;
  v.add_bos = !files.tokenizer->prefix_ids().empty();
  v.chat_template = files.config.chat_template;
  return v;
}

Vocabulary vocabulary_for_gguf(const ModelWeights& w, const ModelSource& source) {
  const bool hf = source.kind == "safetensors" &&
                  std::filesystem::exists(std::filesystem::path(source.path) / "tokenizer.json");
  return hf ? gguf_vocabulary_of_hf(source.path, w.config.vocab_size) : w.vocab;
}

}  // namespace infergate
