// Tool calls read back from a chat model's generated text, in the "hermes" layout that Qwen 2.5/3,
// Hermes and other ChatML models are trained on:
//   <tool_call>
//   {"name": "get_weather", "arguments": {"city": "Paris"}}
//   </tool_call>
// so /v1/chat/completions can answer with `tool_calls`. Text streams through here: a call is held
// until its closing tag, and what is not a call goes out as content exactly as generated. The
// result depends only on the text, never on how it was split into pieces, so a stream's pieces
// add up to the non-streamed answer.
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

namespace infergate {

// A call read back from the model's text: `arguments` is the compact JSON text of an object.
struct ToolCall {
  std::string name;
  std::string arguments;
};

class ToolCallParser {
 public:
  // `tool_names`: the request's tools; a call naming another is not a call (it stays text).
  explicit ToolCallParser(std::set<std::string> tool_names);

  struct Output {
    std::string content;          // text to send as the message's content
    std::vector<ToolCall> calls;  // calls completed by this piece, in order
  };
  // The next piece of generated text (split anywhere, even inside a tag or a UTF-8 character).
  Output push(std::string_view text);
  // The end of the answer: what is still held back comes out.
  Output finish();
  // Whether any call has been read so far.
  bool called() const { return called_; }

 private:
  // One step over pending_; true when a tag was found and there may be more to do.
  bool open_call(Output& out);
  bool close_call(Output& out);
  // A call's body, between its tags: a call, or else its raw text as content.
  void end_call(std::string_view body, Output& out);
  // Content, except whitespace right after a call, which waits to see what follows it.
  void emit_text(std::string_view text, Output& out);

  std::set<std::string> tool_names_;
  // Received, not yet released: outside a call, a tail that may begin "<tool_call>"; inside one,
  // the body so far.
  std::string pending_;
  bool in_call_ = false;
  size_t searched_ = 0;      // in a call: pending_'s bytes already searched for "</tool_call>"
  bool after_call_ = false;  // only whitespace has come since the last call
  std::string held_space_;   // that whitespace: dropped before another call or the end
  bool called_ = false;
};

}  // namespace infergate
