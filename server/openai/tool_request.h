// A chat request's `tools`, `tool_choice` and `parallel_tool_calls`: which functions the model is
// shown (through its chat template), whether its answer is read back for calls, and for
// `required` or a named function the grammar that makes the answer a call (in the layout the
// template asks for, so the model sees no surprise).
#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/chat_template.h"

namespace infergate {

enum class ToolChoice { kNone, kAuto, kRequired, kNamed };

struct ToolRequest {
  static constexpr size_t kMaxTools = 128;
  static constexpr size_t kMaxNameLength = 64;

  nlohmann::ordered_json tools;  // the template's `tools`; null when the request has none
  ToolChoice choice = ToolChoice::kNone;
  std::string named;  // kNamed: the function
  bool parallel = true;
  std::set<std::string> names;  // every tool's

  // Whether the answer is read back for calls.
  bool reads_calls() const { return choice != ToolChoice::kNone; }
};

// Throws ApiError 400 naming the field (e.g. "tools[3].function.name") and the rule or limit.
// tool_choice defaults to auto with tools, none without.
ToolRequest read_tool_request(const nlohmann::ordered_json& request);

// The GBNF that makes the answer one call (a named function, or any tool for `required`; several
// when parallel_tool_calls allows) in `format`; "" when the choice constrains nothing. Throws
// ApiError 400 for a format infergate cannot write, or a tool's parameters the grammar cannot
// express (naming "tools[i].function.parameters" and the schema path).
std::string tool_call_gbnf(const ToolRequest& request, ToolCallFormat format);

}  // namespace infergate
