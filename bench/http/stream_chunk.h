// What one streamed event of an OpenAI-compatible server says, for counting tokens: the
// `data:` payload of a /v1/completions or /v1/chat/completions stream read as JSON.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "bench/metrics/kv_transfer_record.h"

namespace infergate {

struct StreamUsage {
  int prompt_tokens = 0;
  int completion_tokens = 0;
};

// One entry of a chat chunk's delta.tool_calls: the call `index` names, and the pieces of it this
// chunk carries (a server may send a call whole, or its arguments a piece at a time).
struct ToolCallDelta {
  int index = 0;
  std::string name;       // "" when this piece has none
  std::string arguments;  // a piece of the arguments' JSON text
};

struct StreamChunk {
  bool done = false;  // "data: [DONE]", the end of an OpenAI stream
  // Output tokens the chunk's first choice carries: the length of its `token_ids` (vLLM's
  // return_token_ids, infergate serve always), or -1 when it has no `token_ids`.
  int token_ids = -1;
  std::vector<int32_t> ids;  // those token ids (integers only)
  bool has_text = false;     // non-empty `text`, `delta.content` or reasoning, or tool calls
  std::string text;          // `text` or `delta.content`
  // A reasoning model's thinking streamed apart: `delta.reasoning_content` (vLLM's, SGLang's,
  // DeepSeek's API) or `delta.reasoning` (vLLM's newer name, OpenRouter's).
  std::string reasoning;
  std::vector<ToolCallDelta> tool_calls;  // chat: delta.tool_calls
  std::string finish_reason;              // "" while the completion goes on
  std::optional<StreamUsage> usage;
  std::optional<KvTransferRecord> kv_transfer;  // infergate's disaggregated answers, last chunk
  std::string error;  // an {"error": ...} event, or a payload that is not a JSON object
};

StreamChunk parse_stream_chunk(std::string_view data);

// The message of an OpenAI-style error body ({"error": {"message": ...}}, {"error": "..."},
// {"message": ...}, {"detail": ...}), else the body itself, shortened to `max_chars`.
std::string error_message_of(std::string_view body, size_t max_chars = 300);

}  // namespace infergate
