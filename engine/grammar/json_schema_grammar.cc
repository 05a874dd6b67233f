#include "engine/grammar/json_schema_grammar.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <utility>
#include <vector>

#include "engine/grammar/grammar.h"

namespace infergate {

namespace {

using Json = nlohmann::ordered_json;

constexpr int kMaxDepth = 64;
constexpr size_t kMaxNodes = 10000;
constexpr size_t kMaxProperties = 1000;
constexpr int kMaxCount = Grammar::kMaxRepetition;
constexpr int64_t kMaxInteger = 999'999'999'999'999;  // the most `integer` takes: 15 digits

// Rules every grammar may use. Their names end in no digit: the rules made per schema node end
// in "-<n>" and parse_gbnf's own in "_<n>", so no two names can meet. Whitespace nests its
// optional characters so each length has one parse; each digit run stops at 15 digits.
constexpr const char* kBaseRules = R"(value ::= object | array | string | number | boolean | null
object ::= "{" ws ( member ws ( "," ws member ws )* )? "}"
member ::= string ws ":" ws value
array ::= "[" ws ( value ws ( "," ws value ws )* )? "]"
string ::= "\"" char* "\""
char ::= [^"\\\x00-\x1F] | "\\" ( ["\\/bfnrt] | "u" [0-9a-fA-F]{4} )
number ::= integer ( "." [0-9]{1,15} )? ( [eE] [-+]? [0-9]{1,15} )?
integer ::= "-"? ( "0" | [1-9] [0-9]{0,14} )
boolean ::= "true" | "false"
null ::= "null"
)";

std::string whitespace_rule(JsonSpacing spacing) {
  if (spacing == JsonSpacing::kOneSpace) return "ws ::= \" \"?\n";
  return "ws ::= ( [ \\t\\n] ( [ \\t\\n] ( [ \\t\\n] [ \\t\\n]? )? )? )?\n";
}

// In the order a type list's alternatives are written.
const std::vector<std::string> kTypes = {"null",   "boolean", "object", "array",
                                         "string", "number",  "integer"};

// clang-format off
// Keywords that describe without constraining; $defs are read from the root when a $ref names
// them.
const std::set<std::string> kAnnotations = {
    "title", "description", "examples", "default", "$schema", "$id", "$comment", "strict", "name",
    "deprecated", "readOnly", "writeOnly", "$defs", "definitions"};

// Keywords that constrain values and are enforced.
const std::set<std::string> kKeywords = {
    "type", "enum", "const", "properties", "required", "additionalProperties", "items",
    "prefixItems", "minItems", "maxItems", "minLength", "maxLength", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "anyOf", "oneOf", "allOf", "$ref"};

// clang-format on

const std::vector<std::string> kBounds = {"minimum", "exclusiveMinimum", "maximum",
                                          "exclusiveMaximum"};

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw GrammarError(path + ": " + why);
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (size_t i = 0; i < parts.size(); ++i) out += (i ? separator : "") + parts[i];
  return out;
}

std::string index_path(const std::string& path, size_t i) {
  return path + "[" + std::to_string(i) + "]";
}

// A GBNF literal matching `text` exactly (dump() leaves no raw control character to escape).
std::string literal(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string compact(const Json& value, const std::string& path) {
  try {
    return value.dump();
  } catch (const nlohmann::json::exception&) {
    refuse(path, "holds a string that is not valid UTF-8");
  }
}

// `item` (one GBNF item) from `min` to `max` times (-1: no bound); "" when it cannot occur.
std::string repeated(const std::string& item, int min, int max) {
  if (max == 0) return "";
  if (max == -1) {
    if (min <= 1) return item + (min == 0 ? "*" : "+");
    return item + "{" + std::to_string(min) + ",}";
  }
  if (min == max) return min == 1 ? item : item + "{" + std::to_string(min) + "}";
  if (min == 0 && max == 1) return item + "?";
  return item + "{" + std::to_string(min) + "," + std::to_string(max) + "}";
}

std::string digits(char lo, char hi) {
  return lo == hi ? std::string("\"") + lo + "\"" : std::string("[") + lo + "-" + hi + "]";
}

// Alternatives for the digit strings from x to y (same length, x <= y) after `prefix`: split at
// the first digit that differs into the part below, the middle and the part above, so the
// alternatives never overlap.
void same_length(const std::string& x, const std::string& y, const std::string& prefix,
                 std::vector<std::string>& out) {
  if (x.empty()) {
    out.push_back(prefix);
    return;
  }
  const std::string xs = x.substr(1), ys = y.substr(1), at = prefix.empty() ? "" : prefix + " ";
  if (x[0] == y[0]) return same_length(xs, ys, at + digits(x[0], x[0]), out);
  char lo = x[0], hi = y[0];
  if (xs.find_first_not_of('0') != std::string::npos) {
    same_length(xs, std::string(xs.size(), '9'), at + digits(lo, lo), out);
    ++lo;
  }
  if (ys.find_first_not_of('9') != std::string::npos) {
    same_length(std::string(ys.size(), '0'), ys, at + digits(hi, hi), out);
    --hi;
  }
  if (lo > hi) return;
  out.push_back(at + digits(lo, hi) +
                (xs.empty() ? "" : " " + repeated("[0-9]", int(xs.size()), int(xs.size()))));
}

// Alternatives for the decimal texts (no leading zeros) of the integers in [lo, hi], 0 <= lo.
void integer_range(uint64_t lo, uint64_t hi, std::vector<std::string>& out) {
  for (uint64_t first = 0, last = 9;; first = last + 1, last = last * 10 + 9) {
    const uint64_t low = std::max(lo, first), high = std::min(hi, last);
    if (low <= high) same_length(std::to_string(low), std::to_string(high), "", out);
    if (hi <= last) return;
  }
}

// A bound as an integer rounded up or down, clamped just past the 15-digit range so the
// arithmetic on it stays exact.
int64_t rounded(const Json& bound, bool up) {
  constexpr int64_t kOut = kMaxInteger + 1;
  if (bound.is_number_unsigned()) return int64_t(std::min<uint64_t>(bound.get<uint64_t>(), kOut));
  if (bound.is_number_integer()) return std::clamp<int64_t>(bound.get<int64_t>(), -kOut, kOut);
  const double d = std::clamp(bound.get<double>(), -1e16, 1e16);
  return int64_t(up ? std::ceil(d) : std::floor(d));
}

// The JSON type of a value, "integer" for numbers without a fraction (as JSON Schema has it).
std::string type_of(const Json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "boolean";
  if (v.is_object()) return "object";
  if (v.is_array()) return "array";
  if (v.is_string()) return "string";
  if (v.is_number_integer()) return "integer";
  const double d = v.get<double>();
  return std::isfinite(d) && d == std::floor(d) ? "integer" : "number";
}

class Converter {
 public:
  Converter(const Json& root, JsonSpacing spacing) : root_(root), spacing_(spacing) {}

  std::string convert() {
    measure(root_, "schema", 0);
    const std::string start = visit(root_, "schema");
    while (!pending_.empty()) {  // each $defs entry once, however many $refs name it
      const Pending def = pending_.front();
      pending_.pop_front();
      current_def_ = def.rule;
      at_start_ = true;
      rules_ += def.rule + " ::= " + visit(*def.schema, def.path) + "\n";
    }
    check_ref_cycles();
    return "root ::= " + start + "\n" + rules_ + kBaseRules + whitespace_rule(spacing_);
  }

 private:
  struct Pending {
    std::string rule;
    const Json* schema;
    std::string path;
  };

  void measure(const Json& node, const std::string& path, int depth) {
    if (depth > kMaxDepth) {
      refuse(path, "the schema nests deeper than " + std::to_string(kMaxDepth) + " levels");
    }
    if (++nodes_ > kMaxNodes) {
      refuse(path, "the schema has more than " + std::to_string(kMaxNodes) + " JSON values");
    }
    if (node.is_object()) {
      for (const auto& [key, value] : node.items()) measure(value, path + "." + key, depth + 1);
    } else if (node.is_array()) {
      for (size_t i = 0; i < node.size(); ++i) measure(node[i], index_path(path, i), depth + 1);
    }
  }

  // One GBNF item (a rule name or a literal) for the values `schema` allows.
  std::string visit(const Json& schema, const std::string& path) {
    if (schema.is_boolean()) {
      if (schema.get<bool>()) return "value";
      refuse(path, "the schema false allows no value");
    }
    if (!schema.is_object()) refuse(path, "a schema must be an object or a boolean");
    check_keywords(schema, path);
    if (schema.contains("$ref")) return ref(schema, path);
    if (schema.contains("anyOf")) return any_of(schema, path, "anyOf");
    // oneOf is taken as anyOf: a value valid under two of its schemas is not refused.
    if (schema.contains("oneOf")) return any_of(schema, path, "oneOf");
    if (schema.contains("allOf")) return all_of(schema, path);
    if (schema.contains("enum") || schema.contains("const")) return values(schema, path);
    return typed(schema, path);
  }

  static void check_keywords(const Json& schema, const std::string& path) {
    for (const auto& [key, value] : schema.items()) {
      if (kAnnotations.count(key) || kKeywords.count(key)) continue;
      if (key == "pattern") refuse(path + ".pattern", "regular expressions are not supported");
      if (key == "format") {
        refuse(path + ".format",
               "'format' is not supported (it is not enforced, so it is not "
               "ignored either): describe the value with type, enum or bounds");
      }
      refuse(path + "." + key, "unsupported keyword '" + key + "'");
    }
  }

  // Refuses a keyword beside `keyword` that constrains values (their intersection is not
  // supported), `allowed` aside.
  static void alone(const Json& schema, const std::string& path, const std::string& keyword,
                    const std::set<std::string>& allowed = {}) {
    for (const auto& [key, value] : schema.items()) {
      if (key == keyword || kAnnotations.count(key) || allowed.count(key)) continue;
      refuse(path + "." + key, "'" + key + "' beside '" + keyword + "' is not supported");
    }
  }

  std::string ref(const Json& schema, const std::string& path) {
    alone(schema, path, "$ref");
    const std::string at = path + ".$ref";
    const Json& target = schema.at("$ref");
    if (!target.is_string()) refuse(at, "must be a string");
    const std::string text = target.get<std::string>();
    std::string section;
    for (const char* s : {"$defs", "definitions"}) {
      if (text.rfind(std::string("#/") + s + "/", 0) == 0) section = s;
    }
    if (section.empty()) {
      refuse(at, "'" + text + "' is not supported: only #/$defs/NAME and #/definitions/NAME are");
    }
    const std::string name = pointer_token(text.substr(section.size() + 3), at);
    const auto defs = root_.is_object() ? root_.find(section) : root_.end();
    if (defs == root_.end() || !defs->is_object() || !defs->contains(name)) {
      refuse(at, "'" + text + "' names no schema");
    }
    const auto [it, added] = def_rules_.emplace(section + "/" + name, "");
    if (added) {
      const std::string def_path = "schema." + section + "." + name;
      it->second = rule_name("def." + name);
      def_paths_[it->second] = def_path;
      pending_.push_back({it->second, &defs->at(name), def_path});
    }
    if (at_start_ && !current_def_.empty()) starts_with_[current_def_].insert(it->second);
    return it->second;
  }

  // A JSON pointer's token, ~1 and ~0 unescaped; refuses a pointer deeper than one step.
  static std::string pointer_token(const std::string& token, const std::string& at) {
    std::string out;
    for (size_t i = 0; i < token.size(); ++i) {
      if (token[i] == '/') refuse(at, "only a direct entry of $defs or definitions is supported");
      if (token[i] == '~' && i + 1 < token.size() && (token[i + 1] == '0' || token[i + 1] == '1')) {
        out += token[++i] == '0' ? '~' : '/';
      } else {
        out += token[i];
      }
    }
    return out;
  }

  std::string any_of(const Json& schema, const std::string& path, const std::string& keyword) {
    alone(schema, path, keyword);
    const std::string at = path + "." + keyword;
    const Json& list = schema.at(keyword);
    if (!list.is_array() || list.empty()) refuse(at, "must be a non-empty array of schemas");
    std::vector<std::string> alternatives;
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string item = visit(list[i], index_path(at, i));
      // The same rule twice would only double the parses the matcher keeps alive.
      if (std::find(alternatives.begin(), alternatives.end(), item) == alternatives.end()) {
        alternatives.push_back(item);
      }
    }
    return alternatives.size() == 1 ? alternatives[0] : define(at, join(alternatives, " | "));
  }

  std::string all_of(const Json& schema, const std::string& path) {
    alone(schema, path, "allOf");
    const std::string at = path + ".allOf";
    const Json& list = schema.at("allOf");
    if (!list.is_array() || list.size() != 1) {
      refuse(at, "only allOf with exactly one schema is supported");
    }
    return visit(list[0], index_path(at, 0));
  }

  // enum and const, narrowed by type when the schema has one.
  std::string values(const Json& schema, const std::string& path) {
    alone(schema, path, schema.contains("enum") ? "enum" : "const", {"enum", "const", "type"});
    std::vector<const Json*> candidates;
    if (schema.contains("enum")) {
      const Json& list = schema.at("enum");
      if (!list.is_array() || list.empty()) refuse(path + ".enum", "must be a non-empty array");
      for (const Json& v : list) candidates.push_back(&v);
    }
    if (schema.contains("const")) {
      const Json& only = schema.at("const");
      const bool listed =
          candidates.empty() || std::any_of(candidates.begin(), candidates.end(),
                                            [&](const Json* v) { return *v == only; });
      if (!listed) refuse(path + ".const", "is not among the enum values");
      candidates = {&only};
    }
    const std::set<std::string> types = type_set(schema, path);
    std::vector<std::string> literals;
    for (const Json* v : candidates) {
      const std::string type = type_of(*v);
      if (!types.count(type) && !(type == "integer" && types.count("number"))) continue;
      const std::string text = literal(compact(*v, path));
      if (std::find(literals.begin(), literals.end(), text) == literals.end()) {
        literals.push_back(text);
      }
    }
    if (literals.empty()) refuse(path + ".type", "no enum or const value has this type");
    return literals.size() == 1 ? literals[0] : define(path + ".enum", join(literals, " | "));
  }

  // The types `schema` allows: its `type`, or every type when it has none.
  static std::set<std::string> type_set(const Json& schema, const std::string& path) {
    const auto it = schema.find("type");
    if (it == schema.end()) return {kTypes.begin(), kTypes.end()};
    const std::string at = path + ".type";
    const std::vector<Json> names =
        it->is_array() ? it->get<std::vector<Json>>() : std::vector<Json>{*it};
    if (names.empty()) refuse(at, "must name at least one type");
    std::set<std::string> types;
    for (const Json& name : names) {
      if (!name.is_string() || !std::count(kTypes.begin(), kTypes.end(), name.get<std::string>())) {
        refuse(at, "unknown type " + compact(name, at));
      }
      types.insert(name.get<std::string>());
    }
    return types;
  }

  std::string typed(const Json& schema, const std::string& path) {
    std::set<std::string> types = type_set(schema, path);
    if (types.count("number")) types.erase("integer");  // number already takes every integer
    std::vector<std::string> alternatives;
    for (const std::string& type : kTypes) {
      if (types.count(type)) alternatives.push_back(of_type(type, schema, path));
    }
    return alternatives.size() == 1 ? alternatives[0] : define(path, join(alternatives, " | "));
  }

  // The values of one type; keywords for other types do not apply (JSON Schema's rule).
  std::string of_type(const std::string& type, const Json& schema, const std::string& path) {
    if (type == "object") return object(schema, path);
    if (type == "array") return array(schema, path);
    if (type == "string") return string(schema, path);
    if (type == "integer") return integer(schema, path);
    if (type == "number") {
      for (const std::string& key : kBounds) {
        if (schema.contains(key)) refuse(path + "." + key, "bounds are supported on integers only");
      }
    }
    return type;  // number, boolean and null are base rules
  }

  // A count keyword (minLength, maxItems, ...) or `fallback` when absent.
  static int count(const Json& schema, const std::string& key, const std::string& path,
                   int fallback) {
    const auto it = schema.find(key);
    if (it == schema.end()) return fallback;
    const std::string at = path + "." + key;
    if (!it->is_number() || type_of(*it) != "integer" || it->get<double>() < 0) {
      refuse(at, "must be a non-negative integer");
    }
    if (it->get<double>() > kMaxCount) {
      refuse(at, "is above " + std::to_string(kMaxCount) + ", the grammar's repetition limit");
    }
    return int(it->get<double>());
  }

  std::string string(const Json& schema, const std::string& path) {
    const int min = count(schema, "minLength", path, 0);
    const int max = count(schema, "maxLength", path, -1);
    if (min == 0 && max == -1) return "string";
    if (max != -1 && min > max) refuse(path + ".minLength", "is above maxLength");
    // Length counts characters, as JSON Schema does: an escape is one character too.
    return define(path, R"("\"" )" + repeated("char", min, max) + R"( "\"")");
  }

  std::string integer(const Json& schema, const std::string& path) {
    int64_t lo = -kMaxInteger, hi = kMaxInteger;
    bool bounded = false;
    for (const std::string& key : kBounds) {
      const auto it = schema.find(key);
      if (it == schema.end()) continue;
      if (it->is_boolean())
        refuse(path + "." + key,
               "give the bound as a number (draft 4's boolean "
               "form is not supported)");
      if (!it->is_number()) refuse(path + "." + key, "must be a number");
      bounded = true;
      if (key == "minimum") lo = std::max(lo, rounded(*it, true));
      if (key == "exclusiveMinimum") lo = std::max(lo, rounded(*it, false) + 1);
      if (key == "maximum") hi = std::min(hi, rounded(*it, false));
      if (key == "exclusiveMaximum") hi = std::min(hi, rounded(*it, true) - 1);
    }
    if (!bounded) return "integer";
    if (lo > hi) refuse(path, "no integer of at most 15 digits lies within its bounds");
    std::vector<std::string> alternatives;
    if (lo < 0) {
      std::vector<std::string> negative;
      integer_range(uint64_t(std::max<int64_t>(1, -hi)), uint64_t(-lo), negative);
      alternatives.push_back("\"-\" ( " + join(negative, " | ") + " )");
    }
    if (hi >= 0) integer_range(uint64_t(std::max<int64_t>(0, lo)), uint64_t(hi), alternatives);
    return define(path, join(alternatives, " | "));
  }

  std::string object(const Json& schema, const std::string& path) {
    static const Json kNone = Json::object();
    const auto found = schema.find("properties");
    const Json& properties = found == schema.end() ? kNone : *found;
    if (!properties.is_object()) refuse(path + ".properties", "must be an object");
    if (properties.size() > kMaxProperties) {
      refuse(path + ".properties", "has " + std::to_string(properties.size()) +
                                       " properties; at most " + std::to_string(kMaxProperties) +
                                       " are allowed");
    }
    const std::set<std::string> required = required_names(schema, path, properties);
    const Json additional = schema.value("additionalProperties", Json(true));
    if (!additional.is_boolean() && !additional.is_object()) {
      refuse(path + ".additionalProperties", "must be a boolean or a schema");
    }
    // With properties listed, only they are generated, whatever additionalProperties says
    // (OpenAI's strict mode): a subset of the valid objects, in the schema's order.
    if (!properties.empty()) return members(properties, required, path);
    if (additional == Json(false)) return define(path, R"("{" ws "}")");
    if (additional == Json(true)) return "object";
    const bool saved = std::exchange(at_start_, false);
    const std::string value = visit(additional, path + ".additionalProperties");
    at_start_ = saved;
    const std::string pair = "string ws \":\" ws " + value + " ws";
    return define(path, "\"{\" ws ( " + pair + " ( \",\" ws " + pair + " )* )? \"}\"");
  }

  static std::set<std::string> required_names(const Json& schema, const std::string& path,
                                              const Json& properties) {
    const auto it = schema.find("required");
    if (it == schema.end()) return {};
    const std::string at = path + ".required";
    if (!it->is_array()) refuse(at, "must be an array of property names");
    std::set<std::string> names;
    for (const Json& name : *it) {
      if (!name.is_string()) refuse(at, "must be an array of property names");
      if (!properties.contains(name.get<std::string>())) {
        refuse(at, "names " + compact(name, at) +
                       ", which is not in properties (only listed properties are generated)");
      }
      names.insert(name.get<std::string>());
    }
    return names;
  }

  // The members in the schema's order, the optional ones possibly left out, with a comma only
  // between two present members. after(i): members i.. each after its comma; first(i): members
  // i.., the first present one without a comma (needed up to the first required member).
  std::string members(const Json& properties, const std::set<std::string>& required,
                      const std::string& path) {
    const bool saved = std::exchange(at_start_, false);
    std::vector<std::string> member;
    std::vector<bool> needed;
    for (const auto& [key, value] : properties.items()) {
      const std::string key_path = path + ".properties." + key;
      const std::string key_text = literal(compact(Json(key), key_path));
      member.push_back(key_text + " ws \":\" ws " + visit(value, key_path));
      needed.push_back(required.count(key) > 0);
    }
    at_start_ = saved;
    const size_t first_needed =
        size_t(std::find(needed.begin(), needed.end(), true) - needed.begin());
    std::string after, first;  // after(i + 1) and first(i + 1); "" when empty
    for (size_t i = member.size(); i-- > 0;) {
      const std::string rest = after.empty() ? "" : " " + after;
      if (i <= first_needed) {
        const std::string present = member[i] + " ws" + rest;
        std::string first_i = present;
        if (!needed[i]) first_i = first.empty() ? "( " + present + " )?" : present + " | " + first;
        first = define(path + ".first", first_i);
      }
      if (i == 0) break;
      const std::string comma = "\",\" ws " + member[i] + " ws";
      after = define(path + ".after", (needed[i] ? comma : "( " + comma + " )?") + rest);
    }
    return define(path, "\"{\" ws " + first + " \"}\"");
  }

  std::string array(const Json& schema, const std::string& path) {
    const int min = count(schema, "minItems", path, 0);
    int max = count(schema, "maxItems", path, -1);
    const bool saved = std::exchange(at_start_, false);
    std::vector<std::string> prefix = prefix_items(schema, path);
    const std::string rest = rest_items(schema, path);  // "" when no item may follow the prefix
    at_start_ = saved;
    if (rest.empty() && (max == -1 || max > int(prefix.size()))) max = int(prefix.size());
    if (max != -1 && min > max) {
      refuse(path + ".minItems", rest.empty() ? "asks for more items than prefixItems has "
                                                "(items is false)"
                                              : "is above maxItems");
    }
    if (max != -1 && int(prefix.size()) > max) prefix.resize(size_t(max));
    const int k = int(prefix.size());
    const std::string more = "( \",\" ws " + rest + " ws )";
    if (k == 0) {
      if (max == 0) return define(path, R"("[" ws "]")");
      std::string body =
          rest + " ws " + repeated(more, std::max(0, min - 1), max == -1 ? -1 : max - 1);
      if (min == 0) body = "( " + body + " )?";
      return define(path, "\"[\" ws " + body + " \"]\"");
    }
    // Item i (from the last) is present only when the one before it is; each is its own rule,
    // so the text stays flat however long the prefix is.
    std::string tail = repeated(more, std::max(0, min - k), max == -1 ? -1 : max - k);
    for (int i = k - 1; i >= 0; --i) {
      std::string item =
          (i > 0 ? "\",\" ws " : "") + prefix[size_t(i)] + " ws" + (tail.empty() ? "" : " " + tail);
      if (i >= min) item = "( " + item + " )?";
      tail = i > 0 ? define(path + ".prefixItems", item) : item;
    }
    return define(path, "\"[\" ws " + tail + " \"]\"");
  }

  std::vector<std::string> prefix_items(const Json& schema, const std::string& path) {
    const auto it = schema.find("prefixItems");
    if (it == schema.end()) return {};
    const std::string at = path + ".prefixItems";
    if (!it->is_array()) refuse(at, "must be an array of schemas");
    if (it->size() > size_t(kMaxCount)) {
      refuse(at, "has more than " + std::to_string(kMaxCount) + " schemas");
    }
    std::vector<std::string> items;
    for (size_t i = 0; i < it->size(); ++i) items.push_back(visit((*it)[i], index_path(at, i)));
    return items;
  }

  std::string rest_items(const Json& schema, const std::string& path) {
    const auto it = schema.find("items");
    if (it == schema.end()) return "value";
    if (*it == Json(false)) return "";
    if (it->is_array()) refuse(path + ".items", "the array form is not supported: use prefixItems");
    return visit(*it, path + ".items");
  }

  std::string define(const std::string& path, const std::string& body) {
    const std::string name = rule_name(path);
    rules_ += name + " ::= " + body + "\n";
    return name;
  }

  // A unique rule name: the path's tail, sanitized, then "-<n>".
  std::string rule_name(const std::string& path) {
    std::string name;
    for (char c : path.rfind("schema", 0) == 0 ? path.substr(6) : path) {
      const bool plain =
          (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
      if (plain) {
        name += c;
      } else if (!name.empty() && name.back() != '-') {
        name += '-';
      }
    }
    if (name.size() > 40) name = name.substr(name.size() - 40);
    while (!name.empty() && name.front() == '-') name.erase(0, 1);
    if (!name.empty() && name.back() != '-') name += '-';
    return (name.empty() ? "schema-" : name) + std::to_string(next_rule_++);
  }

  // A $defs rule that can reach itself through $refs before any text would be left-recursive
  // (parse_gbnf refuses it without a JSON path), so it is refused here naming the $defs entry.
  void check_ref_cycles() const {
    std::map<std::string, int> state;  // 1 open, 2 done
    for (const auto& [rule, next] : starts_with_) visit_refs(rule, state);
  }

  void visit_refs(const std::string& rule, std::map<std::string, int>& state) const {
    int& mark = state[rule];
    if (mark == 2) return;
    if (mark == 1) {
      refuse(def_paths_.at(rule),
             "its $refs reach it again before any JSON text, which would "
             "recurse forever");
    }
    mark = 1;
    const auto it = starts_with_.find(rule);
    if (it != starts_with_.end()) {
      for (const std::string& to : it->second) visit_refs(to, state);
    }
    state[rule] = 2;
  }

  const Json& root_;
  JsonSpacing spacing_;
  size_t nodes_ = 0;
  int next_rule_ = 0;
  std::string rules_;
  std::deque<Pending> pending_;
  std::map<std::string, std::string> def_rules_;  // "$defs/NAME" -> rule
  std::map<std::string, std::string> def_paths_;  // rule -> "schema.$defs.NAME"
  // Which $defs rules a $defs rule may begin with (through $ref, anyOf, ...), for cycles.
  std::map<std::string, std::set<std::string>> starts_with_;
  std::string current_def_;  // the $defs rule being written, "" for the root schema
  bool at_start_ = true;     // whether no JSON text comes before this point of current_def_
};

}  // namespace

std::string json_schema_to_gbnf(const nlohmann::ordered_json& schema, JsonSpacing spacing) {
  return Converter(schema, spacing).convert();
}

std::string json_schema_to_gbnf(const nlohmann::json& schema, JsonSpacing spacing) {
  return json_schema_to_gbnf(nlohmann::ordered_json(schema), spacing);
}

std::string json_object_gbnf() {
  return std::string("root ::= object\n") + kBaseRules + whitespace_rule(JsonSpacing::kUpToFour);
}

}  // namespace infergate
