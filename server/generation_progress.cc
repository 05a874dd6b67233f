#include "server/generation_progress.h"

#include <ctime>

#include "common/util/clock.h"

namespace infergate {

namespace {

double seconds(int64_t ns) { return double(ns) * 1e-9; }

}  // namespace

GenerationProgress::GenerationProgress(const CompletionRequest& request, const RequestId& id,
                                       ServerContext& context, int64_t arrival_ns)
    : context_(context),
      render_(request.api, id, context.model.name, std::time(nullptr), context.model.tokenizer),
      stops_(request.stop),
      arrival_ns_(arrival_ns),
      prompt_tokens_(int(request.prompt.size())) {
  // A resumed request's earlier tokens went out from another replica: the text state (UTF-8,
  // stop strings held back) is rebuilt from them exactly as it was there, and nothing is sent.
  if (request.resumed.empty()) return;
  stops_.push(render_.decode(request.resumed));
  render_.resumed();
  completion_tokens_ = int(request.resumed.size());
}

void GenerationProgress::observe_tokens(size_t count) {
  if (count == 0) return;
  const int64_t now = now_ns();
  ServerMetrics& m = context_.metrics;
  for (size_t i = 0; i < count; ++i) {
    // Several tokens in one output arrived together: the first carries the gap.
    if (last_token_ns_ == 0)
      m.first_token(seconds(now - arrival_ns_));
    else
      m.inter_token(seconds(i == 0 ? now - last_token_ns_ : 0));
    last_token_ns_ = now;
  }
  m.tokens_generated(int(count));
  completion_tokens_ += int(count);
}

GenerationProgress::Step GenerationProgress::advance(const RequestOutput& output) {
  Step step;
  if (finished_) return step;
  step.ids = output.token_ids;
  observe_tokens(output.token_ids.size());
  std::string text = render_.decode(output.token_ids);
  if (output.finished) text += render_.finish_text();
  step.text = stops_.push(text);
  step.reason = output.finish_reason;
  if (stops_.stopped()) {
    step.reason = FinishReason::kStop;
    step.stopped_by_string = !output.finished;
  } else if (output.finished) {
    step.text += stops_.finish();
  }
  step.done = output.finished || stops_.stopped();
  if (step.done) {
    finished_ = true;
    context_.metrics.request_finished(step.reason, seconds(now_ns() - arrival_ns_));
  }
  return step;
}

void GenerationProgress::abandon() {
  if (finished_) return;
  finished_ = true;
  context_.metrics.request_finished(FinishReason::kAbort, seconds(now_ns() - arrival_ns_));
}

}  // namespace infergate
