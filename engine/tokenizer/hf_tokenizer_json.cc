#include "engine/tokenizer/hf_tokenizer_json.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "common/io/input_file.h"
#include "common/io/json_file.h"
#include "engine/tokenizer/byte_piece.h"

namespace infergate {

namespace {

using nlohmann::json;

// `parent`'s member `key`, or null: a reference that outlives the call, unlike json::value().
const json& member(const json& parent, const std::string& key) {
  static const json null;
  if (!parent.is_object()) return null;
  const auto it = parent.find(key);
  return it == parent.end() ? null : *it;
}

// Errors name the file and the JSON path of what is wrong.
class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& where, const std::string& problem) const {
    throw std::invalid_argument(path_ + ": " + where + ": " + problem);
  }

  const json& object(const json& j, const std::string& where) const {
    if (!j.is_object()) fail(where, "expected an object");
    return j;
  }
  const json& array(const json& j, const std::string& where) const {
    if (!j.is_array()) fail(where, "expected an array");
    return j;
  }
  std::string string(const json& parent, const std::string& key, const std::string& where) const {
    const auto it = parent.find(key);
    if (it == parent.end() || !it->is_string()) fail(where + "." + key, "expected a string");
    return it->get<std::string>();
  }
  bool flag(const json& parent, const std::string& key, bool otherwise,
            const std::string& where) const {
    const auto it = parent.find(key);
    if (it == parent.end() || it->is_null()) return otherwise;
    if (!it->is_boolean()) fail(where + "." + key, "expected true or false");
    return it->get<bool>();
  }
  int64_t id(const json& j, const std::string& where) const {
    if (!j.is_number_integer() || j.get<int64_t>() < 0 || j.get<int64_t>() > kMaxHfTokenId) {
      fail(where, "expected a token id from 0 to " + std::to_string(kMaxHfTokenId));
    }
    return j.get<int64_t>();
  }
  std::string type(const json& j, const std::string& where) const {
    object(j, where);
    return string(j, "type", where);
  }

 private:
  std::string path_;
};

// Split and Replace take {"String": s} or {"Regex": r}; sets exactly one of the two.
void read_pattern(const Reader& r, const json& parent, const std::string& where,
                  std::string& literal, std::string& regex) {
  const auto it = parent.find("pattern");
  if (it == parent.end() || !it->is_object()) r.fail(where + ".pattern", "expected an object");
  if (it->contains("String")) {
    literal = r.string(*it, "String", where + ".pattern");
  } else if (it->contains("Regex")) {
    regex = r.string(*it, "Regex", where + ".pattern");
  } else {
    r.fail(where + ".pattern", "expected {\"String\": ...} or {\"Regex\": ...}");
  }
}

void add_normalizer(const Reader& r, const json& j, const std::string& where,
                    std::vector<TextNormalizer>& out) {
  const std::string type = r.type(j, where);
  try {
    if (type == "Sequence") {
      const json& list = r.array(member(j, "normalizers"), where + ".normalizers");
      for (size_t i = 0; i < list.size(); ++i) {
        add_normalizer(r, list[i], where + ".normalizers[" + std::to_string(i) + "]", out);
      }
    } else if (type == "NFC" || type == "NFD" || type == "NFKC" || type == "NFKD") {
      out.push_back(TextNormalizer::unicode_form(type));
    } else if (type == "Lowercase") {
      out.push_back(TextNormalizer::lowercase());
    } else if (type == "Prepend") {
      out.push_back(TextNormalizer::prepend(r.string(j, "prepend", where)));
    } else if (type == "Replace") {
      std::string literal, regex;
      read_pattern(r, j, where, literal, regex);
      const std::string content = r.string(j, "content", where);
      out.push_back(regex.empty() ? TextNormalizer::replace_string(literal, content)
                                  : TextNormalizer::replace_pattern(regex, content));
    } else if (type == "Strip") {
      out.push_back(TextNormalizer::strip(r.flag(j, "strip_left", true, where),
                                          r.flag(j, "strip_right", true, where)));
    } else {
      r.fail(where + ".type", "normalizer '" + type +
                                  "' is not supported (supported: Sequence, NFC, NFD, NFKC, NFKD, "
                                  "Lowercase, Prepend, Replace, Strip)");
    }
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(": $") != std::string::npos) throw;
    r.fail(where, e.what());
  }
}

SplitBehavior behavior(const Reader& r, const json& j, const std::string& where,
                       const std::string& otherwise) {
  const auto it = j.find("behavior");
  const std::string name =
      it == j.end() || it->is_null() ? otherwise : r.string(j, "behavior", where);
  try {
    return parse_split_behavior(name);
  } catch (const std::invalid_argument& e) {
    r.fail(where + ".behavior", e.what());
  }
}

void add_pre_tokenizer(const Reader& r, const json& j, const std::string& where,
                       std::vector<PreTokenizerStep>& out) {
  const std::string type = r.type(j, where);
  try {
    if (type == "Sequence") {
      const json& list = r.array(member(j, "pretokenizers"), where + ".pretokenizers");
      for (size_t i = 0; i < list.size(); ++i) {
        add_pre_tokenizer(r, list[i], where + ".pretokenizers[" + std::to_string(i) + "]", out);
      }
    } else if (type == "Split") {
      std::string literal, regex;
      read_pattern(r, j, where, literal, regex);
      const SplitBehavior b = behavior(r, j, where, "Isolated");
      const bool invert = r.flag(j, "invert", false, where);
      out.push_back(regex.empty() ? PreTokenizerStep::split_string(literal, b, invert)
                                  : PreTokenizerStep::split_pattern(regex, b, invert));
    } else if (type == "ByteLevel") {
      out.push_back(PreTokenizerStep::byte_level(r.flag(j, "add_prefix_space", true, where),
                                                 r.flag(j, "use_regex", true, where)));
    } else if (type == "Metaspace") {
      const std::string scheme =
          j.contains("prepend_scheme")
              ? r.string(j, "prepend_scheme", where)
              : (r.flag(j, "add_prefix_space", true, where) ? "always" : "never");
      out.push_back(PreTokenizerStep::metaspace(r.string(j, "replacement", where), scheme,
                                                r.flag(j, "split", true, where)));
    } else if (type == "Digits") {
      out.push_back(digits_step(r.flag(j, "individual_digits", false, where)));
    } else if (type == "Punctuation") {
      out.push_back(punctuation_step(behavior(r, j, where, "Isolated")));
    } else if (type == "Whitespace") {
      out.push_back(whitespace_step());
    } else if (type == "WhitespaceSplit") {
      out.push_back(whitespace_split_step());
    } else {
      r.fail(where + ".type", "pre-tokenizer '" + type +
                                  "' is not supported (supported: Sequence, Split, ByteLevel, "
                                  "Metaspace, Digits, Punctuation, Whitespace, WhitespaceSplit)");
    }
  } catch (const std::invalid_argument& e) {
    if (std::string(e.what()).find(": $") != std::string::npos) throw;
    r.fail(where, e.what());
  }
}

void add_decoder(const Reader& r, const json& j, const std::string& where, TokenDecoder& out) {
  const std::string type = r.type(j, where);
  if (type == "Sequence") {
    const json& list = r.array(member(j, "decoders"), where + ".decoders");
    for (size_t i = 0; i < list.size(); ++i) {
      add_decoder(r, list[i], where + ".decoders[" + std::to_string(i) + "]", out);
    }
  } else if (type == "ByteLevel") {
    out.add_byte_level();
  } else if (type == "Replace") {
    std::string literal, regex;
    read_pattern(r, j, where, literal, regex);
    if (!regex.empty()) r.fail(where + ".pattern", "a Regex Replace decoder is not supported");
    out.add_replace(literal, r.string(j, "content", where));
  } else if (type == "ByteFallback") {
    out.add_byte_fallback();
  } else if (type == "Fuse") {
    out.add_fuse();
  } else if (type == "Strip") {
    out.add_strip(r.string(j, "content", where), j.value("start", 0), j.value("stop", 0));
  } else if (type == "Metaspace") {
    const std::string scheme = j.value("prepend_scheme", "always");
    out.add_metaspace(r.string(j, "replacement", where), scheme != "never");
  } else {
    r.fail(where + ".type", "decoder '" + type +
                                "' is not supported (supported: Sequence, ByteLevel, Replace, "
                                "ByteFallback, Fuse, Strip, Metaspace)");
  }
}

std::vector<AddedToken> read_added_tokens(const Reader& r, const json& doc) {
  std::vector<AddedToken> out;
  const auto it = doc.find("added_tokens");
  if (it == doc.end() || it->is_null()) return out;
  r.array(*it, "$.added_tokens");
  if (it->size() > size_t(kMaxHfTokenId)) r.fail("$.added_tokens", "too many tokens");
  for (size_t i = 0; i < it->size(); ++i) {
    const std::string where = "$.added_tokens[" + std::to_string(i) + "]";
    const json& t = r.object((*it)[i], where);
    AddedToken a;
    a.id = static_cast<int32_t>(r.id(member(t, "id"), where + ".id"));
    a.content = r.string(t, "content", where);
    a.special = r.flag(t, "special", false, where);
    a.lstrip = r.flag(t, "lstrip", false, where);
    a.rstrip = r.flag(t, "rstrip", false, where);
    a.single_word = r.flag(t, "single_word", false, where);
    a.normalized = r.flag(t, "normalized", !a.special, where);
    out.push_back(std::move(a));
  }
  return out;
}

std::vector<std::pair<std::string, std::string>> read_merges(const Reader& r, const json& model) {
  std::vector<std::pair<std::string, std::string>> out;
  const auto it = model.find("merges");
  if (it == model.end() || it->is_null()) return out;
  r.array(*it, "$.model.merges");
  out.reserve(it->size());
  for (size_t i = 0; i < it->size(); ++i) {
    const json& m = (*it)[i];
    const std::string where = "$.model.merges[" + std::to_string(i) + "]";
    if (m.is_string()) {  // "left right"; a left piece is never empty
      const std::string text = m.get<std::string>();
      const size_t space = text.find(' ', 1);
      if (space == std::string::npos) r.fail(where, "expected two pieces separated by a space");
      out.emplace_back(text.substr(0, space), text.substr(space + 1));
    } else if (m.is_array() && m.size() == 2 && m[0].is_string() && m[1].is_string()) {
      out.emplace_back(m[0].get<std::string>(), m[1].get<std::string>());
    } else {
      r.fail(where, "expected \"left right\" or [\"left\", \"right\"]");
    }
  }
  return out;
}

void check_bpe_options(const Reader& r, const json& model) {
  const std::string type = model.contains("type") ? r.string(model, "type", "$.model") : "BPE";
  if (type != "BPE") {
    r.fail("$.model.type", "model '" + type + "' is not supported (supported: BPE)");
  }
  if (model.contains("dropout") && !model["dropout"].is_null() &&
      !(model["dropout"].is_number() && model["dropout"].get<double>() == 0.0)) {
    r.fail("$.model.dropout", "BPE dropout is not supported (expected null)");
  }
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    if (model.contains(key) && !model[key].is_null() &&
        !(model[key].is_string() && model[key].get<std::string>().empty())) {
      r.fail(std::string("$.model.") + key, "is not supported (expected null or \"\")");
    }
  }
}

// Every id's piece and type: the model's vocabulary, then the added tokens over it.
Vocabulary vocabulary_of(const Reader& r, const json& model, const std::vector<AddedToken>& added,
                         PieceIds& vocab_ids) {
  const json& v = r.object(member(model, "vocab"), "$.model.vocab");
  int64_t size = 0;
  for (const auto& [piece, id] : v.items()) {
    size = std::max(size, r.id(id, "$.model.vocab[\"" + piece + "\"]") + 1);
  }
  for (const AddedToken& a : added) size = std::max<int64_t>(size, a.id + 1);
  if (size > int64_t(v.size() + added.size()) * 2 + 1024) {
    r.fail("$.model.vocab", "ids up to " + std::to_string(size - 1) + " for " +
                                std::to_string(v.size()) + " pieces: too sparse");
  }
  Vocabulary out;
  out.model = "gpt2";
  out.tokens.assign(static_cast<size_t>(size), "");
  out.scores.assign(static_cast<size_t>(size), 0.0f);
  out.types.assign(static_cast<size_t>(size), TokenType::kUnused);
  vocab_ids.reserve(v.size());
  for (const auto& [piece, id] : v.items()) {
    const auto i = static_cast<size_t>(id.get<int64_t>());
    out.tokens[i] = piece;
    out.types[i] = byte_of_piece(piece) >= 0 ? TokenType::kByte : TokenType::kNormal;
    vocab_ids.insert_or_assign(piece, static_cast<int32_t>(i));
  }
  for (const AddedToken& a : added) {
    const auto i = static_cast<size_t>(a.id);
    out.tokens[i] = a.content;
    out.types[i] = a.special ? TokenType::kControl : TokenType::kUserDefined;
  }
  return out;
}

int32_t id_of(const Vocabulary& vocab, const std::vector<AddedToken>& added,
              const std::string& content) {
  for (const AddedToken& a : added) {
    if (a.content == content) return a.id;
  }
  for (size_t i = 0; i < vocab.size(); ++i) {
    if (vocab.tokens[i] == content) return static_cast<int32_t>(i);
  }
  return -1;
}

// The post-processor's special tokens around a single sequence.
void add_post_processor(const Reader& r, const json& j, const std::string& where,
                        HfTokenizerParts& parts) {
  if (j.is_null()) return;
  const std::string type = r.type(j, where);
  if (type == "Sequence") {
    const json& list = r.array(member(j, "processors"), where + ".processors");
    for (size_t i = 0; i < list.size(); ++i) {
      add_post_processor(r, list[i], where + ".processors[" + std::to_string(i) + "]", parts);
    }
  } else if (type == "TemplateProcessing") {
    const json& single = r.array(member(j, "single"), where + ".single");
    const json& specials = member(j, "special_tokens");
    bool after = false;
    for (size_t i = 0; i < single.size(); ++i) {
      const std::string at = where + ".single[" + std::to_string(i) + "]";
      if (single[i].contains("Sequence")) {
        after = true;
        continue;
      }
      const std::string name =
          r.string(r.object(member(single[i], "SpecialToken"), at), "id", at + ".SpecialToken");
      if (!specials.contains(name)) r.fail(at, "special token '" + name + "' has no ids");
      const json& ids = r.array(member(specials[name], "ids"), where + ".special_tokens");
      for (const json& id : ids) {
        (after ? parts.suffix_ids : parts.prefix_ids)
            .push_back(static_cast<int32_t>(r.id(id, where + ".special_tokens")));
      }
    }
  } else if (type == "RobertaProcessing" || type == "BertProcessing") {
    const json& cls = r.array(member(j, "cls"), where + ".cls");
    const json& sep = r.array(member(j, "sep"), where + ".sep");
    if (cls.size() != 2 || sep.size() != 2) r.fail(where, "expected cls and sep as [token, id]");
    parts.prefix_ids.push_back(static_cast<int32_t>(r.id(cls[1], where + ".cls[1]")));
    parts.suffix_ids.push_back(static_cast<int32_t>(r.id(sep[1], where + ".sep[1]")));
  } else if (type != "ByteLevel") {
    r.fail(where + ".type", "post-processor '" + type +
                                "' is not supported (supported: Sequence, TemplateProcessing, "
                                "RobertaProcessing, BertProcessing, ByteLevel)");
  }
}

std::string token_text(const Reader& r, const json& doc, const std::string& key) {
  const auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return "";
  if (it->is_string()) return it->get<std::string>();
  if (it->is_object()) return r.string(*it, "content", "$." + key);
  r.fail("$." + key, "expected a string or an object with \"content\"");
}

std::optional<bool> optional_flag(const Reader& r, const json& doc, const std::string& key) {
  const auto it = doc.find(key);
  if (it == doc.end() || it->is_null()) return std::nullopt;
  return r.flag(doc, key, false, "$");
}

}  // namespace

HfTokenizerConfig parse_hf_tokenizer_config(const json& doc, const std::string& path) {
  const Reader r(path);
  r.object(doc, "$");
  HfTokenizerConfig c;
  c.add_bos_token = optional_flag(r, doc, "add_bos_token");
  c.add_eos_token = optional_flag(r, doc, "add_eos_token");
  for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                          "cls_token", "mask_token"}) {
    const std::string text = token_text(r, doc, key);
    if (!text.empty()) c.special_tokens[key] = text;
  }
  c.bos_token = token_text(r, doc, "bos_token");
  c.eos_token = token_text(r, doc, "eos_token");
  const auto t = doc.find("chat_template");
  if (t != doc.end() && t->is_string()) {
    c.chat_template = t->get<std::string>();
  } else if (t != doc.end() && t->is_array()) {  // [{"name": ..., "template": ...}, ...]
    for (size_t i = 0; i < t->size(); ++i) {
      const std::string where = "$.chat_template[" + std::to_string(i) + "]";
      const json& named = r.object((*t)[i], where);
      const std::string name = r.string(named, "name", where);
      if (name == "default") c.chat_template = r.string(named, "template", where);
      if (name == "tool_use") c.tool_use_template = r.string(named, "template", where);
    }
  } else if (t != doc.end() && !t->is_null()) {
    r.fail("$.chat_template", "expected a string or a list of {name, template}");
  }
  return c;
}

std::unique_ptr<HfTokenizer> build_hf_tokenizer(const json& doc, const std::string& path,
                                                const HfTokenizerConfig& config) {
  const Reader r(path);
  r.object(doc, "$");
  const json& model = r.object(member(doc, "model"), "$.model");
  check_bpe_options(r, model);
  HfTokenizerParts parts;
  parts.added_tokens = read_added_tokens(r, doc);
  PieceIds ids;
  Vocabulary vocab = vocabulary_of(r, model, parts.added_tokens, ids);
  for (const auto& [key, adder] :
       {std::pair<const char*, int>{"normalizer", 0}, {"pre_tokenizer", 1}, {"decoder", 2}}) {
    const auto it = doc.find(key);
    if (it == doc.end() || it->is_null()) continue;
    const std::string where = std::string("$.") + key;
    if (adder == 0) add_normalizer(r, *it, where, parts.normalizers);
    if (adder == 1) add_pre_tokenizer(r, *it, where, parts.pre_tokenizers);
    if (adder == 2) add_decoder(r, *it, where, parts.decoder);
  }
  add_post_processor(r, member(doc, "post_processor"), "$.post_processor", parts);
  BpeOptions options;
  options.byte_fallback = r.flag(model, "byte_fallback", false, "$.model");
  options.ignore_merges = r.flag(model, "ignore_merges", false, "$.model");
  options.fuse_unk = r.flag(model, "fuse_unk", false, "$.model");
  const std::string unk = model.contains("unk_token") && model["unk_token"].is_string()
                              ? model["unk_token"].get<std::string>()
                              : "";
  options.unk_id = unk.empty() ? -1 : id_of(vocab, parts.added_tokens, unk);
  try {
    parts.model = std::make_unique<BpeModel>(std::move(ids), read_merges(r, model), options);
  } catch (const std::invalid_argument& e) {
    r.fail("$.model.merges", e.what());
  }
  vocab.merges.clear();
  vocab.bos_id = config.bos_token.empty() ? (parts.prefix_ids.empty() ? -1 : parts.prefix_ids[0])
                                          : id_of(vocab, parts.added_tokens, config.bos_token);
  vocab.eos_id = config.eos_token.empty() ? -1 : id_of(vocab, parts.added_tokens, config.eos_token);
  // transformers' Llama and Gemma tokenizers rebuild the post-processor from these two flags.
  if (config.add_bos_token) {
    parts.prefix_ids.clear();
    if (*config.add_bos_token && vocab.bos_id >= 0) parts.prefix_ids.push_back(vocab.bos_id);
  }
  if (config.add_eos_token) {
    parts.suffix_ids.clear();
    if (*config.add_eos_token && vocab.eos_id >= 0) parts.suffix_ids.push_back(vocab.eos_id);
  }
  return std::make_unique<HfTokenizer>(vocab, std::move(parts));
}

HfTokenizerFiles load_hf_tokenizer(const std::string& dir) {
  namespace fs = std::filesystem;
  const std::string tokenizer_path = (fs::path(dir) / "tokenizer.json").string();
  const std::string config_path = (fs::path(dir) / "tokenizer_config.json").string();
  const std::string template_path = (fs::path(dir) / "chat_template.jinja").string();
  HfTokenizerFiles files;
  if (fs::exists(config_path)) {
    files.config = parse_hf_tokenizer_config(read_json_file(config_path), config_path);
  }
  if (fs::exists(template_path)) {
    files.config.chat_template = read_regular_file(template_path, kMaxModelTextFileBytes);
  }
  files.tokenizer =
      build_hf_tokenizer(read_json_file(tokenizer_path), tokenizer_path, files.config);
  return files;
}

}  // namespace infergate
