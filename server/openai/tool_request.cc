#include "server/openai/tool_request.h"

#include "engine/grammar/grammar.h"
#include "engine/grammar/json_schema_grammar.h"
#include "server/openai/request_fields.h"

namespace infergate {

namespace {

using json = nlohmann::ordered_json;

std::string indexed(const std::string& field, size_t i) {
  return field + "[" + std::to_string(i) + "]";
}

// OpenAI's rule for function names, which also keeps them safe inside a GBNF literal.
bool valid_name(const std::string& name) {
  if (name.empty() || name.size() > ToolRequest::kMaxNameLength) return false;
  for (const char c : name) {
    const bool plain = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                       c == '_' || c == '-';
    if (!plain) return false;
  }
  return true;
}

std::string read_tool(const json& tool, const std::string& at) {
  const bool shaped = tool.is_object() && tool.value("type", json()) == "function" &&
                      tool.contains("function") && tool["function"].is_object();
  if (!shaped) {
    throw bad_field(at, "'" + at +
                            "' must be {\"type\": \"function\", \"function\": {\"name\": "
                            "..., \"parameters\": {...}}}");
  }
  const json& function = tool["function"];
  const json name = function.value("name", json());
  if (!name.is_string() || !valid_name(name.get<std::string>())) {
    throw bad_field(at + ".function.name", "'" + at +
                                               ".function.name' must be 1 to 64 letters, "
                                               "digits, '_' or '-'");
  }
  const json parameters = function.value("parameters", json());
  if (!parameters.is_null() && !parameters.is_object()) {
    throw bad_field(at + ".function.parameters",
                    "'" + at + ".function.parameters' must be a JSON schema object");
  }
  return name.get<std::string>();
}

void read_tools(const json& v, ToolRequest& r) {
  if (!v.is_array()) throw bad_field("tools", "'tools' must be an array of functions");
  if (v.size() > ToolRequest::kMaxTools) {
    throw bad_field("tools", "'tools' has " + std::to_string(v.size()) + " functions; at most " +
                                 std::to_string(ToolRequest::kMaxTools));
  }
  for (size_t i = 0; i < v.size(); ++i) {
    const std::string name = read_tool(v[i], indexed("tools", i));
    if (!r.names.insert(name).second) {
      throw bad_field(indexed("tools", i) + ".function.name",
                      "'tools' names the function '" + name + "' twice");
    }
  }
  if (!v.empty()) r.tools = v;
}

void read_choice(const json& v, ToolRequest& r) {
  if (v.is_null()) return;
  if (v == "none") {
    r.choice = ToolChoice::kNone;
  } else if (v == "auto") {
    r.choice = ToolChoice::kAuto;
  } else if (v == "required") {
    r.choice = ToolChoice::kRequired;
  } else if (v.is_object() && v.value("type", json()) == "function" && v.contains("function") &&
             v["function"].is_object() && v["function"].value("name", json()).is_string()) {
    r.choice = ToolChoice::kNamed;
    r.named = v["function"]["name"].get<std::string>();
    if (!r.names.count(r.named)) {
      throw bad_field("tool_choice.function.name",
                      "'tool_choice' names '" + r.named + "', which is not among 'tools'");
    }
  } else {
    throw bad_field("tool_choice",
                    "'tool_choice' must be \"none\", \"auto\", \"required\" or {\"type\": "
                    "\"function\", \"function\": {\"name\": ...}}");
  }
  if (r.choice != ToolChoice::kNone && r.tools.is_null()) {
    throw bad_field("tool_choice", "'tool_choice' other than \"none\" needs 'tools'");
  }
}

// A function's parameters; none means it takes none.
json parameters_of(const json& tool) {
  const json parameters = tool["function"].value("parameters", json());
  if (!parameters.is_null()) return parameters;
  return {{"type", "object"}, {"properties", json::object()}, {"additionalProperties", false}};
}

// The JSON of one call to `tool`: {"name": NAME, "arguments": {...}}. The parameters' $defs
// move to the root, where their $refs point. Each schema is checked alone first, so a problem is
// named by the tool it belongs to.
json call_schema(const json& tool, size_t i, json& defs) {
  json parameters = parameters_of(tool);
  const std::string field = indexed("tools", i) + ".function.parameters";
  try {
    json_schema_to_gbnf(parameters);
  } catch (const GrammarError& e) {
    throw bad_field(field, "'" + field + "': " + e.what());
  }
  for (const char* section : {"$defs", "definitions"}) {
    if (!parameters.contains(section)) continue;
    for (const auto& [name, def] : parameters[section].items()) {
      if (defs[section].contains(name) && defs[section][name] != def) {
        throw bad_field(field + "." + section + "." + name,
                        "two tools define '" + name +
                            "' differently; required and named "
                            "tool_choice need one meaning per $defs name");
      }
      defs[section][name] = def;
    }
    parameters.erase(section);
  }
  return {
      {"type", "object"},
      {"properties", {{"name", {{"const", tool["function"]["name"]}}}, {"arguments", parameters}}},
      {"required", {"name", "arguments"}},
      {"additionalProperties", false}};
}

// The schema of the call object a choice allows.
json calls_schema(const ToolRequest& r) {
  json defs = json::object();
  json alternatives = json::array();
  for (size_t i = 0; i < r.tools.size(); ++i) {
    const json& tool = r.tools[i];
    if (r.choice == ToolChoice::kNamed && tool["function"]["name"] != r.named) continue;
    alternatives.push_back(call_schema(tool, i, defs));
  }
  json schema = alternatives.size() == 1 ? alternatives[0] : json{{"anyOf", alternatives}};
  for (const auto& [section, entries] : defs.items()) schema[section] = entries;
  return schema;
}

}  // namespace

ToolRequest read_tool_request(const json& request) {
  ToolRequest r;
  if (request.contains("tools") && !request["tools"].is_null()) read_tools(request["tools"], r);
  if (!r.tools.is_null()) r.choice = ToolChoice::kAuto;
  if (request.contains("tool_choice")) read_choice(request["tool_choice"], r);
  if (request.contains("parallel_tool_calls") && !request["parallel_tool_calls"].is_null()) {
    if (!request["parallel_tool_calls"].is_boolean()) {
      throw bad_field("parallel_tool_calls", "'parallel_tool_calls' must be true or false");
    }
    r.parallel = request["parallel_tool_calls"].get<bool>();
  }
  return r;
}

std::string tool_call_gbnf(const ToolRequest& r, ToolCallFormat format) {
  if (r.choice != ToolChoice::kRequired && r.choice != ToolChoice::kNamed) return "";
  if (format != ToolCallFormat::kHermes) {
    throw bad_field("tool_choice",
                    "'tool_choice' required or named needs a chat template whose tool calls "
                    "infergate can write (<tool_call> JSON, as Qwen and Hermes templates ask)");
  }
  std::string call;
  try {
    call = json_schema_to_gbnf(calls_schema(r), JsonSpacing::kOneSpace);
  } catch (const GrammarError& e) {
    throw bad_field("tools", std::string("'tools': the calls' grammar: ") + e.what());
  }
  call.replace(0, 4, "call");  // the schema's root rule becomes the call's
  const std::string block = "block ::= \"<tool_call>\\n\" call \"\\n</tool_call>\"\n";
  const bool several = r.parallel && r.choice == ToolChoice::kRequired;
  return std::string("root ::= block") + (several ? " ( \"\\n\" block )*" : "") + "\n" + block +
         call;
}

}  // namespace infergate
