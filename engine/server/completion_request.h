// POST /v1/completions: the JSON body, parsed and checked against the served model before the
// engine sees it. Every refusal is an ApiError naming the field, so a bad request costs one
// 4xx and nothing else.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/core/sampling_params.h"
#include "engine/tokenizer/byte_tokenizer.h"

namespace infergate {

// What the parser needs to know about the model being served.
struct ServedModel {
  std::string name;
  int32_t vocab_size = 0;
  int max_model_len = 0;
  const ByteTokenizer* tokenizer = nullptr;  // null: text prompts are refused
};

struct CompletionRequest {
  std::vector<int32_t> prompt;
  SamplingParams sampling;
  bool stream = false;
  bool include_usage = false;  // stream_options.include_usage
};

// Throws ApiError (400, or 404 for another model's name) on malformed JSON, unknown fields,
// wrong types, bad values, an empty or out-of-vocabulary prompt, or a request that cannot fit
// in max_model_len.
CompletionRequest parse_completion_request(std::string_view body, const ServedModel& model);

}  // namespace infergate
