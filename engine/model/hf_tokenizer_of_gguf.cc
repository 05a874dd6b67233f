#include "engine/model/hf_tokenizer_of_gguf.h"

#include <map>
#include <stdexcept>
#include <string>

#include "engine/tokenizer/gguf_pre_tokenizers.h"

namespace infergate {

namespace {

using nlohmann::json;

json pre_tokenizer_of(const GgufPreTokenizer& pre) {
  json steps = json::array();
  for (const std::string& pattern : pre.patterns) {
    steps.push_back({{"type", "Split"},
                     {"pattern", {{"Regex", pattern}}},
                     {"behavior", "Isolated"},
                     {"invert", false}});
  }
  steps.push_back({{"type", "ByteLevel"},
                   {"add_prefix_space", false},
                   {"trim_offsets", true},
                   {"use_regex", false}});
  return {{"type", "Sequence"}, {"pretokenizers", steps}};
}

// BOS before every sequence, as Llama 3's tokenizer.json says it.
json bos_post_processor(const std::string& bos, int32_t bos_id) {
  const json special = {{"SpecialToken", {{"id", bos}, {"type_id", 0}}}};
  const json special_b = {{"SpecialToken", {{"id", bos}, {"type_id", 1}}}};
  const json a = {{"Sequence", {{"id", "A"}, {"type_id", 0}}}};
  const json b = {{"Sequence", {{"id", "B"}, {"type_id", 1}}}};
  return {{"type", "TemplateProcessing"},
          {"single", {special, a}},
          {"pair", {special, a, special_b, b}},
          {"special_tokens", {{bos, {{"id", bos}, {"ids", {bos_id}}, {"tokens", {bos}}}}}}};
}

json added_token(const std::string& content, size_t id, bool special) {
  return {{"id", id},        {"content", content},     {"single_word", false}, {"lstrip", false},
          {"rstrip", false}, {"normalized", !special}, {"special", special}};
}

}  // namespace

HfTokenizerDocuments hf_tokenizer_of_gguf(const GgufTokenizerData& gguf) {
  const Vocabulary& v = gguf.vocab;
  if (v.model != "gpt2") {
    throw std::invalid_argument("tokenizer.ggml.model '" + v.model +
                                "' (SentencePiece) is not written as tokenizer.json; only "
                                "byte-level BPE ('gpt2') is");
  }
  const GgufPreTokenizer pre = gguf_pre_tokenizer(gguf.pre);
  json vocab = json::object(), added = json::array();
  std::map<std::string, size_t> first_id;
  for (size_t id = 0; id < v.size(); ++id) {
    const TokenType type = id < v.types.size() ? v.types[id] : TokenType::kNormal;
    if (type == TokenType::kUnused) continue;
    if (type == TokenType::kControl || type == TokenType::kUserDefined) {
      added.push_back(added_token(v.tokens[id], id, type == TokenType::kControl));
    }
    const auto [at, fresh] = first_id.emplace(v.tokens[id], id);
    if (!fresh) {
      throw std::invalid_argument("token '" + v.tokens[id] + "' is at ids " +
                                  std::to_string(at->second) + " and " + std::to_string(id) +
                                  "; tokenizer.json's vocab holds one id per piece");
    }
    vocab[v.tokens[id]] = id;
  }
  const bool has_bos = v.bos_id >= 0 && size_t(v.bos_id) < v.size();
  const bool has_eos = v.eos_id >= 0 && size_t(v.eos_id) < v.size();
  HfTokenizerDocuments docs;
  docs.tokenizer = {
      {"version", "1.0"},
      {"truncation", nullptr},
      {"padding", nullptr},
      {"added_tokens", added},
      {"normalizer", nullptr},
      {"pre_tokenizer", pre_tokenizer_of(pre)},
      {"post_processor", gguf.add_bos && has_bos
                             ? bos_post_processor(v.tokens[size_t(v.bos_id)], v.bos_id)
                             : json(nullptr)},
      {"decoder",
       {{"type", "ByteLevel"},
        {"add_prefix_space", true},
        {"trim_offsets", true},
        {"use_regex", true}}},
      {"model",
       {{"type", "BPE"},
        {"dropout", nullptr},
        {"unk_token", nullptr},
        {"continuing_subword_prefix", nullptr},
        {"end_of_word_suffix", nullptr},
        {"fuse_unk", false},
        {"byte_fallback", false},
        {"ignore_merges", pre.ignore_merges},
        {"vocab", vocab},
        {"merges", v.merges}}}};
  docs.config = {{"tokenizer_class", "PreTrainedTokenizerFast"},
                 {"clean_up_tokenization_spaces", false}};
  if (has_bos) docs.config["bos_token"] = v.tokens[size_t(v.bos_id)];
  if (has_eos) docs.config["eos_token"] = v.tokens[size_t(v.eos_id)];
  if (!gguf.chat_template.empty()) docs.config["chat_template"] = gguf.chat_template;
  return docs;
}

}  // namespace infergate
