#include "server/openai/structured_output.h"

#include <vector>

#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/json_schema_grammar.h"
#include "engine/grammar/regex_grammar.h"
#include "server/openai/request_fields.h"

namespace infergate {

namespace {

using json = nlohmann::ordered_json;  // a schema's properties keep their order

constexpr size_t kMaxChoices = 1024;  // guided_choice

// A GBNF literal for `text`: quotes, backslashes and control bytes escaped.
std::string gbnf_literal(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      static const char* hex = "0123456789abcdef";
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

std::string choice_gbnf(const json& choices, const std::string& field) {
  if (!choices.is_array() || choices.empty()) {
    throw bad_field(field, "'" + field + "' must be a non-empty array of strings");
  }
  if (choices.size() > kMaxChoices) {
    throw bad_field(field, "'" + field + "' has " + std::to_string(choices.size()) +
                               " choices; at most " + std::to_string(kMaxChoices));
  }
  std::string gbnf = "root ::= ";
  for (size_t i = 0; i < choices.size(); ++i) {
    if (!choices[i].is_string() || choices[i].get_ref<const std::string&>().empty()) {
      throw bad_field(field, "'" + field + "' must hold non-empty strings");
    }
    gbnf += (i ? " | " : "") + gbnf_literal(choices[i].get<std::string>());
  }
  return gbnf;
}

std::string string_field(const json& v, const std::string& field) {
  if (!v.is_string()) throw bad_field(field, "'" + field + "' must be a string");
  return v.get<std::string>();
}

// A schema given as an object, or as JSON text (vLLM takes both for guided_json).
json schema_value(const json& v, const std::string& field) {
  if (v.is_object() || v.is_boolean()) return v;
  if (v.is_string()) {
    json parsed = json::parse(v.get<std::string>(), nullptr, false);
    if (!parsed.is_discarded()) return parsed;
  }
  throw bad_field(field, "'" + field + "' must be a JSON schema (an object, or its JSON text)");
}

// Runs a converter, turning its GrammarError into a 400 on `field`.
template <typename Convert>
std::string converted(const std::string& field, Convert convert) {
  try {
    return convert();
  } catch (const GrammarError& e) {
    throw bad_field(field, "'" + field + "': " + e.what());
  }
}

std::string response_format_gbnf(const json& v) {
  if (!v.is_object() || !v.contains("type") || !v["type"].is_string()) {
    throw bad_field("response_format",
                    "'response_format' must be {\"type\": \"text\" | \"json_object\" | "
                    "\"json_schema\", ...}");
  }
  const std::string type = v["type"].get<std::string>();
  if (type == "text") return "";
  if (type == "json_object") return json_object_gbnf();
  if (type != "json_schema") {
    throw bad_field("response_format.type",
                    "'response_format.type' must be text, json_object or json_schema");
  }
  const json* spec = v.contains("json_schema") ? &v["json_schema"] : nullptr;
  if (!spec || !spec->is_object() || !spec->contains("schema")) {
    throw bad_field("response_format.json_schema",
                    "'response_format.json_schema' must be {\"name\": ..., \"schema\": {...}}");
  }
  const std::string field = "response_format.json_schema.schema";
  const json schema = schema_value((*spec)["schema"], field);
  return converted(field, [&] { return json_schema_to_gbnf(schema); });
}

// vLLM's guided_* fields, or the same keys inside structured_outputs.
std::string guided_gbnf(const std::string& key, const json& v, const std::string& field) {
  if (key == "json" || key == "guided_json") {
    const json schema = schema_value(v, field);
    return converted(field, [&] { return json_schema_to_gbnf(schema); });
  }
  if (key == "regex" || key == "guided_regex") {
    const std::string pattern = string_field(v, field);
    return converted(field, [&] { return regex_to_gbnf(pattern); });
  }
  if (key == "choice" || key == "guided_choice") return choice_gbnf(v, field);
  if (key == "json_object") return json_object_gbnf();
  return string_field(v, field);  // grammar / guided_grammar: GBNF
}

}  // namespace

StructuredOutput structured_output_gbnf(const json& request) {
  std::vector<std::pair<std::string, std::string>> asked;  // (field, gbnf)
  for (const char* key : {"guided_json", "guided_regex", "guided_choice", "guided_grammar"}) {
    if (request.contains(key) && !request[key].is_null()) {
      asked.emplace_back(key, guided_gbnf(key, request[key], key));
    }
  }
  if (request.contains("structured_outputs") && !request["structured_outputs"].is_null()) {
    const json& so = request["structured_outputs"];
    if (!so.is_object()) {
      throw bad_field("structured_outputs", "'structured_outputs' must be an object");
    }
    for (const auto& [key, value] : so.items()) {
      if (key != "json" && key != "regex" && key != "choice" && key != "grammar" &&
          key != "json_object") {
        throw bad_field("structured_outputs." + key,
                        "'structured_outputs' takes json, regex, choice, grammar or json_object");
      }
      if (!value.is_null()) {
        asked.emplace_back("structured_outputs." + key,
                           guided_gbnf(key, value, "structured_outputs." + key));
      }
    }
  }
  if (request.contains("response_format") && !request["response_format"].is_null()) {
    std::string gbnf = response_format_gbnf(request["response_format"]);
    if (!gbnf.empty()) asked.emplace_back("response_format", std::move(gbnf));
  }
  if (asked.size() > 1) {
    throw bad_field(asked[1].first, "'" + asked[0].first + "' and '" + asked[1].first +
                                        "' both constrain the output; give one");
  }
  if (asked.empty()) return {};
  return {asked[0].first, asked[0].second};
}

std::shared_ptr<const TokenGrammar> GrammarCache::get(const std::string& gbnf,
                                                      const Tokenizer& tokenizer) {
  std::shared_ptr<const TokenTrie> vocabulary;
  {
    const std::lock_guard lock(mutex_);
    const auto it = grammars_.find(gbnf);
    if (it != grammars_.end()) {
      order_.remove(gbnf);
      order_.push_back(gbnf);
      return it->second;
    }
    if (!vocabulary_) {
      std::vector<std::string> bytes;
      for (int32_t id = 0; id < tokenizer.vocab_size(); ++id) {
        bytes.push_back(tokenizer.decode_token(id));
      }
      vocabulary_ = std::make_shared<TokenTrie>(std::move(bytes), std::vector<bool>{});
    }
    vocabulary = vocabulary_;
  }
  auto grammar = std::make_shared<Grammar>(parse_gbnf(gbnf));  // outside the lock: it may be slow
  auto compiled = std::make_shared<const TokenGrammar>(std::move(grammar), vocabulary);
  const std::lock_guard lock(mutex_);
  if (grammars_.size() >= kMaxGrammars) {
    grammars_.erase(order_.front());
    order_.pop_front();
  }
  if (grammars_.emplace(gbnf, compiled).second) order_.push_back(gbnf);
  return compiled;
}

}  // namespace infergate
