#include "engine/tokenizer/gguf_pre_tokenizers.h"

#include <map>
#include <stdexcept>

namespace infergate {

namespace {

// The patterns as the models' tokenizer.json files write them.
const char* const kLlama3 =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}{1,3}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char* const kQwen2 =
    "(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\\r\\n\\p{L}\\p{N}]?\\p{L}+|\\p{N}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char* const kDeepSeekV3Words =
    "[!\"#$%&'()*+,\\-./"
    ":;<=>?@\\[\\\\\\]^_`{|}~][A-Za-z]+|[^\r\n\\p{L}\\p{P}\\p{S}]?[\\p{L}\\p{M}]+| "
    "?[\\p{P}\\p{S}]+[\r\n]*|\\s*[\r\n]+|\\s+(?!\\S)|\\s+";
const char* const kTekken =
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+|[^"
    "\\r\\n"
    "\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*|\\p{N}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|\\s+(?!\\S)|\\s+";
const char* const kGpt4o =
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+(?i:'"
    "s|'t|'"
    "re|'ve|'m|'ll|'d)?|[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}"
    "\\p{Lo}"
    "\\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\\p{N}{1,3}| "
    "?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*|\\s*[\\r\\n]+|"
    "\\s+(?!\\S)|\\s+";
const char* const kBloom = " ?[^(\\s|.,!?…。，、।۔،)]+";

struct Entry {
  std::vector<std::string> names;
  GgufPreTokenizer pre;
};

const std::vector<Entry>& entries() {
  static const std::vector<Entry> table = {
      {{"", "default"},
       {{"[\\p{P}\\$\\+<=>\\^~\\|]+", kGpt2SplitPattern, "\\p{N}+", "[0-9][0-9][0-9]"}}},
      {{"gpt-2", "phi-2", "mpt", "olmo", "jais", "trillion", "granite-docling", "jina-es",
        "jina-de", "jina-v2-es", "jina-v2-de", "jina-v2-code"},
       {{kGpt2SplitPattern}}},
      {{"llama3", "llama-v3", "llama-bpe", "falcon3", "falcon-h1", "pixtral", "midm-2.0", "lfm2"},
       {{kLlama3}, true, true}},
      {{"dbrx", "smaug-bpe", "chatglm-bpe"}, {{kLlama3}}},
      {{"qwen2", "stablelm2", "hunyuan", "solar-open"}, {{kQwen2}}},
      {{"deepseek-v3"}, {{"\\p{N}{1,3}", "[一-龥぀-ゟ゠-ヿ]+", kDeepSeekV3Words}}},
      {{"deepseek-coder"},
       {{"[\r\n]", "\\s?\\p{L}+", "\\s?\\p{P}+", "[一-龥ࠀ-一가-퟿]+", "\\p{N}"}}},
      {{"starcoder", "refact", "command-r", "smollm", "codeshell", "exaone", "minerva-7b"},
       {{"\\p{N}", kGpt2SplitPattern}}},
      {{"falcon"}, {{"[\\p{P}\\$\\+<=>\\^~\\|`]+", kGpt2SplitPattern, "[0-9][0-9][0-9]"}}},
      {{"tekken"}, {{kTekken}, true, true}},
      {{"gpt-4o", "minimax-m2"}, {{kGpt4o}}},
      {{"poro-chat", "bloom", "gpt3-finnish"}, {{kBloom}}},
      {{"viking"}, {{kBloom, "\\p{N}"}}},
  };
  return table;
}

}  // namespace

GgufPreTokenizer gguf_pre_tokenizer(const std::string& name) {
  std::string supported;
  for (const Entry& e : entries()) {
    for (const std::string& n : e.names) {
      if (n == name) return e.pre;
      if (!n.empty()) supported += (supported.empty() ? "" : ", ") + n;
    }
  }
  throw std::invalid_argument("tokenizer.ggml.pre '" + name +
                              "' is not supported (supported: " + supported + ")");
}

std::optional<std::string> gguf_pre_tokenizer_name(const std::vector<std::string>& patterns,
                                                   bool ignore_merges) {
  for (const Entry& e : entries()) {
    const bool named = !e.names.front().empty();
    if (named && e.pre.patterns == patterns && e.pre.ignore_merges == ignore_merges) {
      return e.names.front();
    }
  }
  return std::nullopt;
}

std::unique_ptr<HfTokenizer> make_gguf_bpe_tokenizer(const Vocabulary& vocab,
                                                     const GgufPreTokenizer& pre, bool add_bos) {
  HfTokenizerParts parts;
  PieceIds ids;
  ids.reserve(vocab.size());
  for (size_t id = 0; id < vocab.size(); ++id) {
    ids.insert_or_assign(vocab.tokens[id], static_cast<int32_t>(id));
    const TokenType type = id < vocab.types.size() ? vocab.types[id] : TokenType::kNormal;
    if (type == TokenType::kControl || type == TokenType::kUserDefined) {
      AddedToken t;
      t.content = vocab.tokens[id];
      t.id = static_cast<int32_t>(id);
      t.special = type == TokenType::kControl;
      parts.added_tokens.push_back(std::move(t));
    }
  }
  std::vector<std::pair<std::string, std::string>> merges;
  merges.reserve(vocab.merges.size());
  for (size_t i = 0; i < vocab.merges.size(); ++i) {
    const std::string& m = vocab.merges[i];
    const size_t space = m.find(' ', 1);
    if (space == std::string::npos) {
      throw std::invalid_argument("BPE merge " + std::to_string(i) + " '" + m +
                                  "' is not two pieces separated by a space");
    }
    merges.emplace_back(m.substr(0, space), m.substr(space + 1));
  }
  BpeOptions options;
  options.ignore_merges = pre.ignore_merges;
  parts.model = std::make_unique<BpeModel>(std::move(ids), merges, options);
  for (const std::string& p : pre.patterns) {
    parts.pre_tokenizers.push_back(
        PreTokenizerStep::split_pattern(p, SplitBehavior::kIsolated, false));
  }
  parts.pre_tokenizers.push_back(PreTokenizerStep::byte_level(false, false));
  parts.decoder.add_byte_level();
  if (add_bos && vocab.bos_id >= 0) parts.prefix_ids.push_back(vocab.bos_id);
  return std::make_unique<HfTokenizer>(vocab, std::move(parts));
}

}  // namespace infergate
