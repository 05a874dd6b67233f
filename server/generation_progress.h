// One request's answer as the engine's outputs arrive: the text (UTF-8 whole, cut at a stop
// string), the token ids, the finish, and the server metrics each token earns.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/request/sequence.h"
#include "server/openai/completion_response.h"
#include "server/openai/stop_strings.h"
#include "server/server_context.h"

namespace infergate {

class GenerationProgress {
 public:
  // `arrival_ns` (common/util/clock.h): when the request was read; latencies count from it.
  GenerationProgress(const CompletionRequest& request, const RequestId& id, ServerContext& context,
                     int64_t arrival_ns);

  struct Step {
    std::string text;          // to send now
    std::vector<int32_t> ids;  // this output's tokens
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

 private:
  void observe_tokens(size_t count);

  ServerContext& context_;
  CompletionRenderer render_;
  StopStrings stops_;
  int64_t arrival_ns_;
  int64_t last_token_ns_ = 0;
  int prompt_tokens_;
  int completion_tokens_ = 0;
  bool finished_ = false;
};

}  // namespace infergate
