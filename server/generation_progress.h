// One choice of a request's answer as the engine's outputs arrive: the text (UTF-8 whole, cut at
// a stop string, after an echoed prompt, tool calls read out of it), the token ids and their
// logprobs, the finish, and the server metrics each token earns. A request's latencies are its
// first choice's.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/request/sequence.h"
#include "server/openai/completion_response.h"
#include "server/openai/logprobs_json.h"
#include "server/openai/stop_strings.h"
#include "server/openai/tool_call_parser.h"
#include "server/server_context.h"

namespace infergate {

class GenerationProgress {
 public:
  // `arrival_ns` (common/util/clock.h): when the request was read; latencies count from it.
  // `id`: the response's; `index`: the choice's among the request's n.
  GenerationProgress(const CompletionRequest& request, const RequestId& id, ServerContext& context,
                     int64_t arrival_ns, int index = 0);

  struct Step {
    std::string text;                     // to send now
    std::vector<ToolCall> tool_calls;     // completed by this output (chat with tools)
    std::vector<int32_t> ids;             // this output's tokens
    std::vector<TokenLogprobs> logprobs;  // theirs, when the request asked for logprobs
    FinishReason reason = FinishReason::kNone;
    bool done = false;               // the answer is complete (reason says why)
    bool stopped_by_string = false;  // the engine must be told to abort the request
  };
  Step advance(const RequestOutput& output);
  // The client went away mid-answer: counted as an aborted request.
  void abandon();

  int prompt_tokens() const { return prompt_tokens_; }
  int completion_tokens() const { return completion_tokens_; }
  CompletionRenderer& renderer() { return render_; }
  // The `logprobs` of a choice or chunk with these tokens (null when not asked for); the
  // choice's tokens in order, all at once or a chunk at a time.
  nlohmann::json logprobs_json(const std::vector<int32_t>& ids,
                               const std::vector<TokenLogprobs>& logprobs);
  bool done() const { return finished_; }

 private:
  void observe_tokens(size_t count);
  // The text of a step's tokens, stop strings looked for only after the first min_tokens.
  std::string text_after_stops(const std::vector<int32_t>& ids, bool finished);
  // Moves the calls in step.text (and, at the end, anything held back) to step.tool_calls.
  void read_tool_calls(Step& step);

  ServerContext& context_;
  CompletionRenderer render_;
  LogprobsRenderer logprobs_;
  bool wants_logprobs_;
  StopStrings stops_;
  std::optional<ToolCallParser> tool_calls_;  // when the request's tool_choice reads calls
  std::string echo_;                          // the prompt's text, still to go out first
  int min_tokens_;
  bool reports_request_;  // the first choice carries the request's metrics
  int64_t arrival_ns_;
  int64_t last_token_ns_ = 0;
  int prompt_tokens_;
  int completion_tokens_ = 0;
  bool finished_ = false;
};

}  // namespace infergate
