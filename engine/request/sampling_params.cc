#include "engine/request/sampling_params.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace infergate {

namespace {

void check_penalty(const char* field, float value) {
  const float limit = SamplingParams::kMaxFrequencyPenalty;
  if (!(value >= -limit && value <= limit)) {
    throw std::invalid_argument(std::string(field) + " must be in [-2, 2], got " +
                                std::to_string(value));
  }
}

void check_token_id(const char* field, int32_t id, int32_t vocab_size) {
  if (id < 0 || id >= vocab_size) {
    throw std::invalid_argument(std::string(field) + " holds token id " + std::to_string(id) +
                                ", outside the vocabulary [0, " + std::to_string(vocab_size) + ")");
  }
}

void validate_processing(const SamplingParams& p) {
  if (p.logit_bias.size() > SamplingParams::kMaxLogitBiasIds) {
    throw std::invalid_argument("logit_bias has " + std::to_string(p.logit_bias.size()) +
                                " entries; at most " +
                                std::to_string(SamplingParams::kMaxLogitBiasIds) + " are allowed");
  }
  for (const auto& [id, bias] : p.logit_bias) {
    if (!(std::fabs(bias) <= SamplingParams::kMaxLogitBias)) {
      throw std::invalid_argument("logit_bias of token " + std::to_string(id) +
                                  " must be in [-100, 100], got " + std::to_string(bias));
    }
  }
  if (p.min_tokens < 0 || p.min_tokens > p.max_tokens) {
    throw std::invalid_argument(
        "min_tokens must be in [0, max_tokens = " + std::to_string(p.max_tokens) + "], got " +
        std::to_string(p.min_tokens));
  }
  if (!(p.repetition_penalty > 0.0f) || !std::isfinite(p.repetition_penalty)) {
    throw std::invalid_argument("repetition_penalty must be a finite number > 0 (1 is off), got " +
                                std::to_string(p.repetition_penalty));
  }
  check_penalty("frequency_penalty", p.frequency_penalty);
  check_penalty("presence_penalty", p.presence_penalty);
  if (p.grammar && p.ignore_eos) {
    throw std::invalid_argument(
        "ignore_eos cannot be combined with structured output: the grammar ends the answer with "
        "EOS");
  }
  if (p.logprobs < -1 || p.logprobs > SamplingParams::kMaxLogprobs) {
    throw std::invalid_argument("logprobs must be in [0, " +
                                std::to_string(SamplingParams::kMaxLogprobs) + "], got " +
                                std::to_string(p.logprobs));
  }
}

}  // namespace

bool SamplingParams::processes_logits() const {
  return !logit_bias.empty() || min_tokens > 0 || repetition_penalty != 1.0f ||
         frequency_penalty != 0.0f || presence_penalty != 0.0f || grammar != nullptr;
}

void SamplingParams::validate() const {
  if (max_tokens <= 0) {
    throw std::invalid_argument("max_tokens must be >= 1, got " + std::to_string(max_tokens));
  }
  if (!(temperature >= 0.0f) || !std::isfinite(temperature)) {
    throw std::invalid_argument("temperature must be a finite number >= 0, got " +
                                std::to_string(temperature));
  }
  if (top_k < 0)
    throw std::invalid_argument("top_k must be >= 0 (0 disables), got " + std::to_string(top_k));
  if (!(top_p > 0.0f && top_p <= 1.0f)) {
    throw std::invalid_argument("top_p must be in (0, 1], got " + std::to_string(top_p));
  }
  validate_processing(*this);
}

void SamplingParams::validate(int32_t vocab_size) const {
  validate();
  if (grammar && grammar->vocabulary().vocab_size() != vocab_size) {
    throw std::invalid_argument("grammar is over a vocabulary of " +
                                std::to_string(grammar->vocabulary().vocab_size()) +
                                " tokens; the model has " + std::to_string(vocab_size));
  }
  for (const auto& entry : logit_bias) check_token_id("logit_bias", entry.first, vocab_size);
  for (int32_t id : stop_token_ids) check_token_id("stop_token_ids", id, vocab_size);
}

}  // namespace infergate
