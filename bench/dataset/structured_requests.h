// A workload's structured-output requests (docs/workload-schema.md, `structured_output`): a JSONL
// file whose lines are request fields (response_format, guided_json, guided_choice, or tools with
// tool_choice), request i taking line i mod N; and the judge of each answer against what its
// line asked for, so a run records the share of valid outputs beside its latencies, for any
// server (its output is checked here, not trusted).
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/json_schema/json_schema_validator.h"

namespace infergate {

struct AnswerToolCall {
  std::string name;
  std::string arguments;  // the JSON text the server sent
};

// What a server answered, put together from its stream.
struct StructuredAnswer {
  std::string content;  // the text (completions) or message content (chat)
  std::vector<AnswerToolCall> tool_calls;
  std::string finish_reason;
};

class StructuredRequests {
 public:
  static constexpr size_t kMaxLines = 10000;
  static constexpr size_t kMaxLineBytes = 1 << 20;

  // Reads `path` for requests to `api` ("completions" or "chat"; tools need chat). Throws
  // DatasetError "FILE:LINE: ..." naming the field (and the schema path) for a malformed line,
  // a field not listed above, or a schema the judge cannot check.
  static std::shared_ptr<const StructuredRequests> read(const std::string& path,
                                                        const std::string& api);

  size_t size() const { return lines_.size(); }
  bool has_tools() const { return has_tools_; }
  // Request `index`'s fields as JSON text to append inside a body's object: ,"key":value...
  const std::string& body_fields(uint64_t index) const { return line(index).fields; }
  // "" when `answer` gives what request `index` asked for; else what is wrong, e.g.
  // "tool call 0 (get_weather): value.city: missing required property".
  std::string problem(uint64_t index, const StructuredAnswer& answer) const;

 private:
  enum class Expect { kJsonSchema, kJsonObject, kChoice, kTools };
  enum class Choice { kNone, kAuto, kRequired, kNamed };
  struct Line {
    std::string fields;
    Expect expect = Expect::kJsonSchema;
    std::shared_ptr<const JsonSchemaValidator> schema;                        // kJsonSchema
    std::vector<std::string> choices;                                         // kChoice
    std::map<std::string, std::shared_ptr<const JsonSchemaValidator>> tools;  // by name
    Choice choice = Choice::kAuto;
    std::string named;
    bool parallel = true;
  };
  const Line& line(uint64_t index) const { return lines_[index % lines_.size()]; }
  static Line read_line(const nlohmann::json& j, const std::string& api);
  static void read_tools(const nlohmann::json& j, Line& l);
  static std::string content_problem(const Line& l, const StructuredAnswer& answer);
  static std::string tool_calls_problem(const Line& l, const StructuredAnswer& answer);

  std::vector<Line> lines_;
  bool has_tools_ = false;
};

}  // namespace infergate
