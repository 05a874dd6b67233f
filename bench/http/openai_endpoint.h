// Everything the openai target needs to know about the server before a run: where it is, which
// model to ask for, and the model's vocabulary size (the datasets draw token ids below it).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "bench/dataset/dataset_tokenizer.h"
#include "bench/dataset/structured_requests.h"
#include "bench/http/stream_tally.h"
#include "bench/workload/workload.h"
#include "common/http/http_access.h"
#include "common/http/http_url.h"

namespace infergate {

struct OpenAiEndpoint {
  HttpUrl url;
  std::string api = "completions";  // completions | chat
  std::string model;                // the served model's name, as requests give it
  int32_t vocab_size = 0;
  double timeout_s = 600;  // per request, from handing it to the client to its last byte
  HttpAccess access;       // $OPENAI_API_KEY, target.headers, TLS (bench/http/target_access.h)
  SamplingSpec sampling;   // the workload's; greedy by default
  // The server's tokenizer and chat template when the client knows them (target.tokenizer, a
  // router target's model): chat prompts are decoded and counted with them.
  std::optional<DatasetTokenizer> tokenizer;
  // The workload's structured_output: its fields go into the requests, the answers are judged.
  std::shared_ptr<const StructuredRequests> structured;
  bool constrain = true;  // false: the structured requests go plain (a sweep's off point)
  ThinkSpan think;        // target.reasoning_span: thinking inside the answer's text
};

// The endpoint of a workload's openai target. What the workload leaves out is asked of the
// server, once, with GET /v1/models: an empty `model` becomes the first model listed (as `vllm
// bench serve` does), a vocab_size of 0 the listed model's `vocab_size` (an extension field
// infergate serve adds), or, when the server gives none, the size of `tokenizer` (the client's
// copy of the server's tokenizer, kept in the endpoint). Nothing is asked when both are given,
// so a run against a server that is down records errors rather than refusing to start. Throws
// std::runtime_error naming the workload field to set when the server cannot tell, or when the
// tokenizer has ids the server's vocabulary lacks.
OpenAiEndpoint resolve_openai_endpoint(const TargetSpec& target,
                                       std::optional<DatasetTokenizer> tokenizer = std::nullopt);

}  // namespace infergate
