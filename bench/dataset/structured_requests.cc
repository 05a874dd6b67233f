#include "bench/dataset/structured_requests.h"

#include <fstream>
#include <stdexcept>

#include "bench/dataset/bounded_line.h"
#include "bench/dataset/dataset_error.h"

namespace infergate {

namespace {

using nlohmann::json;

[[noreturn]] void refuse(const std::string& field, const std::string& problem) {
  throw std::invalid_argument(field + ": " + problem);
}

std::shared_ptr<const JsonSchemaValidator> validator(const json& schema, const std::string& field) {
  if (!schema.is_object() && !schema.is_boolean()) refuse(field, "must be a JSON schema object");
  try {
    return std::make_shared<const JsonSchemaValidator>(schema);
  } catch (const JsonSchemaError& e) {
    refuse(field, e.what());
  }
}

// The value an answer's text holds, or null (discarded) when it is not JSON.
json parsed(const std::string& text) { return json::parse(text, nullptr, false); }

std::string quoted(const std::string& text) { return json(text).dump(); }

}  // namespace

StructuredRequests::Line StructuredRequests::read_line(const json& j, const std::string& api) {
  if (!j.is_object()) refuse("the line", "must be a JSON object of request fields");
  Line l;
  for (const auto& [key, value] : j.items()) {
    if (key == "response_format" || key == "guided_json" || key == "guided_choice") {
      if (j.size() != 1) refuse(key, "must be the line's only field");
    } else if (key == "tools" || key == "tool_choice" || key == "parallel_tool_calls") {
      if (api != "chat") refuse(key, "needs target.api \"chat\"");
    } else {
      refuse(key,
             "is not a structured-output field (response_format, guided_json, "
             "guided_choice, tools, tool_choice, parallel_tool_calls)");
    }
  }
  l.fields = "," + j.dump().substr(1, j.dump().size() - 2);
  if (j.contains("response_format")) {
    const json& f = j["response_format"];
    const std::string type = f.is_object() ? f.value("type", std::string()) : std::string();
    if (type == "json_object") {
      l.expect = Expect::kJsonObject;
    } else if (type == "json_schema" && f.contains("json_schema") && f["json_schema"].is_object() &&
               f["json_schema"].contains("schema")) {
      l.schema = validator(f["json_schema"]["schema"], "response_format.json_schema.schema");
    } else {
      refuse("response_format",
             "must be {\"type\": \"json_object\"} or {\"type\": "
             "\"json_schema\", \"json_schema\": {\"schema\": {...}}}");
    }
  } else if (j.contains("guided_json")) {
    l.schema = validator(j["guided_json"], "guided_json");
  } else if (j.contains("guided_choice")) {
    l.expect = Expect::kChoice;
    const json& c = j["guided_choice"];
    if (!c.is_array() || c.empty()) refuse("guided_choice", "must be a non-empty array of strings");
    for (const json& s : c) {
      if (!s.is_string()) refuse("guided_choice", "must be a non-empty array of strings");
      l.choices.push_back(s.get<std::string>());
    }
  } else {
    read_tools(j, l);
  }
  return l;
}

void StructuredRequests::read_tools(const json& j, Line& l) {
  l.expect = Expect::kTools;
  const json tools = j.value("tools", json());
  if (!tools.is_array() || tools.empty()) refuse("tools", "must be a non-empty array of functions");
  for (size_t i = 0; i < tools.size(); ++i) {
    const std::string at = "tools[" + std::to_string(i) + "]";
    const json& t = tools[i];
    const json f = t.is_object() ? t.value("function", json()) : json();
    if (!f.is_object() || !f.value("name", json()).is_string()) {
      refuse(at, "must be {\"type\": \"function\", \"function\": {\"name\": ..., ...}}");
    }
    const json parameters = f.value("parameters", json({{"type", "object"}}));
    l.tools[f["name"].get<std::string>()] = validator(parameters, at + ".function.parameters");
  }
  const json choice = j.value("tool_choice", json("auto"));
  if (choice == "none") {
    l.choice = Choice::kNone;
  } else if (choice == "required") {
    l.choice = Choice::kRequired;
  } else if (choice.is_object() && choice.value("function", json()).is_object()) {
    l.choice = Choice::kNamed;
    l.named = choice["function"].value("name", std::string());
    if (!l.tools.count(l.named)) refuse("tool_choice", "names no function of 'tools'");
  } else if (choice != "auto") {
    refuse("tool_choice", "must be \"none\", \"auto\", \"required\" or a named function");
  }
  const json parallel = j.value("parallel_tool_calls", json(true));
  if (!parallel.is_boolean()) refuse("parallel_tool_calls", "must be true or false");
  l.parallel = parallel.get<bool>();
}

std::shared_ptr<const StructuredRequests> StructuredRequests::read(const std::string& path,
                                                                   const std::string& api) {
  std::ifstream in(path);
  if (!in) throw DatasetError(path, 0, "cannot open the structured-output file");
  auto requests = std::make_shared<StructuredRequests>();
  std::string text;
  for (int number = 1; read_bounded_line(in, text, kMaxLineBytes, path, number, "request");
       ++number) {
    if (blank_line(text)) continue;
    if (requests->lines_.size() == kMaxLines) {
      throw DatasetError(path, number, "more than " + std::to_string(kMaxLines) + " lines");
    }
    const json j = json::parse(text, nullptr, false);
    if (j.is_discarded()) throw DatasetError(path, number, "not a JSON object");
    try {
      requests->lines_.push_back(read_line(j, api));
      requests->has_tools_ =
          requests->has_tools_ || requests->lines_.back().expect == Expect::kTools;
    } catch (const std::invalid_argument& e) {
      throw DatasetError(path, number, e.what());
    }
  }
  if (requests->lines_.empty()) throw DatasetError(path, 0, "holds no request");
  return requests;
}

std::string StructuredRequests::content_problem(const Line& l, const StructuredAnswer& answer) {
  if (l.expect == Expect::kChoice) {
    for (const std::string& c : l.choices) {
      if (answer.content == c) return "";
    }
    return quoted(answer.content.substr(0, 80)) + " is none of guided_choice";
  }
  const json value = parsed(answer.content);
  if (value.is_discarded())
    return "the output is not JSON: " + quoted(answer.content.substr(0, 80));
  if (l.expect == Expect::kJsonObject) return value.is_object() ? "" : "the output is no object";
  return l.schema->problem(value);
}

std::string StructuredRequests::tool_calls_problem(const Line& l, const StructuredAnswer& answer) {
  const size_t calls = answer.tool_calls.size();
  if (l.choice == Choice::kNone && calls > 0) return "a tool call under tool_choice none";
  if ((l.choice == Choice::kRequired || l.choice == Choice::kNamed) && calls == 0) {
    return "no tool call, and tool_choice asks for one";
  }
  if (calls > 1 && (!l.parallel || l.choice == Choice::kNamed)) {
    return std::to_string(calls) + " tool calls where one is allowed";
  }
  for (size_t i = 0; i < calls; ++i) {
    const AnswerToolCall& call = answer.tool_calls[i];
    const std::string at = "tool call " + std::to_string(i) + " (" + call.name + ")";
    const auto tool = l.tools.find(call.name);
    if (tool == l.tools.end() || (l.choice == Choice::kNamed && call.name != l.named)) {
      return at + ": not a function the request allows";
    }
    const json arguments = parsed(call.arguments);
    if (arguments.is_discarded()) return at + ": the arguments are not JSON";
    const std::string problem = tool->second->problem(arguments);
    if (!problem.empty()) return at + ": " + problem;
  }
  return "";
}

std::string StructuredRequests::problem(uint64_t index, const StructuredAnswer& answer) const {
  if (answer.finish_reason == "length") return "cut off by max_tokens (finish_reason length)";
  const Line& l = line(index);
  return l.expect == Expect::kTools ? tool_calls_problem(l, answer) : content_problem(l, answer);
}

}  // namespace infergate
