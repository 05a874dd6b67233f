#include "server/generation_progress.h"

#include <algorithm>
#include <ctime>
#include <utility>

#include "common/util/clock.h"

namespace infergate {

namespace {

double seconds(int64_t ns) { return double(ns) * 1e-9; }

}  // namespace

GenerationProgress::GenerationProgress(const CompletionRequest& request, const RequestId& id,
                                       ServerContext& context, int64_t arrival_ns, int index)
    : context_(context),
      render_(request.api, id, context.model.name, std::time(nullptr), context.model.tokenizer,
              index),
      logprobs_(request.api, context.model.tokenizer, request.echo ? request.echo_text.size() : 0),
      wants_logprobs_(request.sampling.logprobs >= 0),
      stops_(request.stop),
      echo_(request.echo ? request.echo_text : ""),
      min_tokens_(request.sampling.min_tokens),
      reports_request_(index == 0),
      arrival_ns_(arrival_ns),
      prompt_tokens_(int(request.prompt.size())) {
  if (request.api == ApiKind::kChat && request.tools.reads_calls()) {
    tool_calls_.emplace(request.tools.names);
  }
  // A resumed request's earlier tokens went out from another replica: the text state (UTF-8,
  // stop strings held back, a tool call begun) is rebuilt from them exactly as it was there, and
  // nothing is sent.
  if (request.resumed.empty()) return;
  const std::string sent = stops_.push(render_.decode(request.resumed));
  if (tool_calls_) tool_calls_->push(sent);
  render_.resumed();
  completion_tokens_ = int(request.resumed.size());
}

void GenerationProgress::observe_tokens(size_t count) {
  if (count == 0) return;
  const int64_t now = now_ns();
  ServerMetrics& m = context_.metrics;
  for (size_t i = 0; i < count; ++i) {
    // Several tokens in one output arrived together: the first carries the gap.
    if (last_token_ns_ == 0) {
      if (reports_request_) m.first_token(seconds(now - arrival_ns_));
    } else {
      m.inter_token(seconds(i == 0 ? now - last_token_ns_ : 0));
    }
    last_token_ns_ = now;
  }
  m.tokens_generated(int(count));
  completion_tokens_ += int(count);
}

std::string GenerationProgress::text_after_stops(const std::vector<int32_t>& ids, bool finished) {
  const int before = completion_tokens_ - int(ids.size());  // observe_tokens counted these
  const size_t unarmed = size_t(std::clamp(min_tokens_ - before, 0, int(ids.size())));
  std::string text;
  if (unarmed > 0) {
    text = stops_.pass(render_.decode({ids.begin(), ids.begin() + ptrdiff_t(unarmed)}));
  }
  std::string rest = render_.decode({ids.begin() + ptrdiff_t(unarmed), ids.end()});
  if (finished) rest += render_.finish_text();
  return text + stops_.push(rest);
}

GenerationProgress::Step GenerationProgress::advance(const RequestOutput& output) {
  Step step;
  if (finished_) return step;
  step.ids = output.token_ids;
  step.logprobs = output.logprobs;
  observe_tokens(output.token_ids.size());
  step.text = text_after_stops(output.token_ids, output.finished);
  step.reason = output.finish_reason;
  if (stops_.stopped()) {
    step.reason = FinishReason::kStop;
    step.stopped_by_string = !output.finished;
  } else if (output.finished) {
    step.text += stops_.finish();
  }
  step.done = output.finished || stops_.stopped();
  read_tool_calls(step);
  step.text = std::exchange(echo_, "") + step.text;
  if (step.done) {
    finished_ = true;
    if (reports_request_) {
      context_.metrics.request_finished(step.reason, seconds(now_ns() - arrival_ns_));
    }
  }
  return step;
}

void GenerationProgress::read_tool_calls(Step& step) {
  if (!tool_calls_) return;
  ToolCallParser::Output read = tool_calls_->push(step.text);
  if (step.done) {
    ToolCallParser::Output rest = tool_calls_->finish();
    read.content += rest.content;
    read.calls.insert(read.calls.end(), rest.calls.begin(), rest.calls.end());
  }
  step.text = std::move(read.content);
  step.tool_calls = std::move(read.calls);
}

nlohmann::json GenerationProgress::logprobs_json(const std::vector<int32_t>& ids,
                                                 const std::vector<TokenLogprobs>& logprobs) {
  if (!wants_logprobs_) return nullptr;
  return logprobs_.render(ids, logprobs);
}

void GenerationProgress::abandon() {
  if (finished_) return;
  finished_ = true;
  if (reports_request_) {
    context_.metrics.request_finished(FinishReason::kAbort, seconds(now_ns() - arrival_ns_));
  }
}

}  // namespace infergate
