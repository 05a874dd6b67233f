#include "server/openai/request_fields.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>

#include "common/io/json_excerpt.h"
#include "common/io/json_unique_keys.h"
#include "server/openai/request_field_policy.h"

namespace infergate {

namespace {

using nlohmann::json;

int64_t get_integer(const json& v, const std::string& field) {
  if (!v.is_number_integer()) throw bad_field(field, "'" + field + "' must be an integer");
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX)) {
    throw bad_field(field, "'" + field + "' is out of range");
  }
  return v.get<int64_t>();
}

int get_int(const json& v, const std::string& field) {
  const int64_t x = get_integer(v, field);
  if (x < INT32_MIN || x > INT32_MAX) throw bad_field(field, "'" + field + "' is out of range");
  return int(x);
}

float get_number(const json& v, const std::string& field) {
  if (!v.is_number()) throw bad_field(field, "'" + field + "' must be a number");
  return v.get<float>();
}

bool get_bool(const json& v, const std::string& field) {
  if (!v.is_boolean()) throw bad_field(field, "'" + field + "' must be a boolean");
  return v.get<bool>();
}

// OpenAI's `stop`: null, one string, or up to 4 strings.
std::vector<std::string> read_stop(const json& v) {
  constexpr size_t kMaxStops = 4;
  if (v.is_null()) return {};
  if (v.is_string()) {
    if (v.get_ref<const std::string&>().empty()) throw bad_field("stop", "'stop' is empty");
    return {v.get<std::string>()};
  }
  if (!v.is_array()) throw bad_field("stop", "'stop' must be a string or an array of strings");
  if (v.size() > kMaxStops) throw bad_field("stop", "'stop' takes at most 4 strings");
  std::vector<std::string> stops;
  for (const json& s : v) {
    if (!s.is_string() || s.get_ref<const std::string&>().empty()) {
      throw bad_field("stop", "'stop' must hold non-empty strings");
    }
    stops.push_back(s.get<std::string>());
  }
  return stops;
}

void read_stream_options(const json& j, CompletionRequest& r) {
  if (j.contains("stream")) r.stream = get_bool(j["stream"], "stream");
  if (!j.contains("stream_options") || j["stream_options"].is_null()) return;
  const json& o = j["stream_options"];
  if (!r.stream) throw bad_field("stream_options", "'stream_options' needs \"stream\": true");
  if (!o.is_object()) throw bad_field("stream_options", "'stream_options' must be an object");
  for (const auto& [key, value] : o.items()) {
    if (key != "include_usage") {
      throw bad_field("stream_options", "unknown field '" + text_excerpt(key) + "'");
    }
    r.include_usage = get_bool(value, "stream_options.include_usage");
  }
}

bool present(const json& j, const char* field) { return j.contains(field) && !j[field].is_null(); }

void read_penalties(const json& j, SamplingParams& s) {
  if (present(j, "frequency_penalty")) {
    s.frequency_penalty = get_number(j["frequency_penalty"], "frequency_penalty");
  }
  if (present(j, "presence_penalty")) {
    s.presence_penalty = get_number(j["presence_penalty"], "presence_penalty");
  }
  if (present(j, "repetition_penalty")) {
    s.repetition_penalty = get_number(j["repetition_penalty"], "repetition_penalty");
  }
  if (present(j, "min_tokens")) s.min_tokens = get_int(j["min_tokens"], "min_tokens");
}

// OpenAI's logit_bias: {"<token id>": bias}; the count is bounded before any entry is read.
void read_logit_bias(const json& v, int32_t vocab_size, SamplingParams& s) {
  if (!v.is_object()) throw bad_field("logit_bias", "'logit_bias' must be an object");
  if (v.size() > SamplingParams::kMaxLogitBiasIds) {
    throw bad_field("logit_bias",
                    "'logit_bias' has " + std::to_string(v.size()) + " entries; at most " +
                        std::to_string(SamplingParams::kMaxLogitBiasIds) + " are allowed");
  }
  for (const auto& [key, bias] : v.items()) {
    const std::string at = "logit_bias." + text_excerpt(key);
    size_t used = 0;
    long long id = -1;
    try {
      id = std::stoll(key, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != key.size()) {
      throw bad_field(at, "'" + at + "': the key must be a token id");
    }
    if (id < 0 || id >= vocab_size) {
      throw bad_field(at, "'" + at + "': token id " + std::to_string(id) +
                              " is outside the vocabulary [0, " + std::to_string(vocab_size) + ")");
    }
    s.logit_bias.emplace_back(int32_t(id), get_number(bias, at));
  }
}

// Completions' `logprobs`: how many alternatives (0..20); chat's: true/false, with
// `top_logprobs` alternatives.
void read_logprobs(const json& j, ApiKind api, SamplingParams& s) {
  const std::string limit = std::to_string(SamplingParams::kMaxLogprobs);
  const auto count = [&](const json& v, const std::string& field) {
    const int n = get_int(v, field);
    if (n < 0 || n > SamplingParams::kMaxLogprobs) {
      throw bad_field(field,
                      "'" + field + "' must be in [0, " + limit + "], got " + std::to_string(n));
    }
    return n;
  };
  if (api == ApiKind::kCompletions) {
    if (present(j, "logprobs")) s.logprobs = count(j["logprobs"], "logprobs");
    return;
  }
  const bool on = present(j, "logprobs") && get_bool(j["logprobs"], "logprobs");
  if (present(j, "top_logprobs")) {
    if (!on) throw bad_field("top_logprobs", "'top_logprobs' needs \"logprobs\": true");
    s.logprobs = count(j["top_logprobs"], "top_logprobs");
  } else if (on) {
    s.logprobs = 0;
  }
}

void read_sampling(const json& j, const ServedModel& model, ApiKind api, SamplingParams& s) {
  if (j.contains("max_tokens")) s.max_tokens = get_int(j["max_tokens"], "max_tokens");
  if (j.contains("temperature")) s.temperature = get_number(j["temperature"], "temperature");
  if (j.contains("top_p")) s.top_p = get_number(j["top_p"], "top_p");
  if (j.contains("top_k")) {
    s.top_k = get_int(j["top_k"], "top_k");
    if (s.top_k == -1) s.top_k = 0;  // vLLM's "off"
  }
  if (j.contains("seed") && !j["seed"].is_null()) {
    const int64_t seed = get_integer(j["seed"], "seed");
    if (seed < 0) throw bad_field("seed", "'seed' must be >= 0");
    s.seed = uint64_t(seed);
  }
  if (j.contains("ignore_eos")) s.ignore_eos = get_bool(j["ignore_eos"], "ignore_eos");
  if (j.contains("stop_token_ids")) {
    const json& v = j["stop_token_ids"];
    if (!v.is_array()) throw bad_field("stop_token_ids", "'stop_token_ids' must be an array");
    s.stop_token_ids = read_token_ids(v, "stop_token_ids", model.vocab_size);
  }
  read_penalties(j, s);
  if (present(j, "logit_bias")) read_logit_bias(j["logit_bias"], model.vocab_size, s);
  read_logprobs(j, api, s);
}

// `n` choices, each its own engine request; the migration and handoff extensions take one.
void read_choices(const json& j, CompletionRequest& r) {
  if (present(j, "n")) {
    r.n = get_int(j["n"], "n");
    if (r.n < 1 || r.n > CompletionRequest::kMaxChoices) {
      throw bad_field("n", "'n' must be in [1, " + std::to_string(CompletionRequest::kMaxChoices) +
                               "], got " + std::to_string(r.n));
    }
  }
  if (r.n > 1 && (!r.resumed.empty() || r.kv_export || !r.kv_source.is_null())) {
    throw bad_field("n", "'n' must be 1 with resume_token_ids or kv_transfer");
  }
  if (present(j, "echo")) r.echo = get_bool(j["echo"], "echo");
  if (r.echo && r.sampling.logprobs >= 0) {
    throw bad_field("echo",
                    "'echo' with 'logprobs' needs the prompt's logprobs, which are not "
                    "computed (the engine keeps only the rows it samples from)");
  }
  if (r.echo && !r.resumed.empty()) {
    throw bad_field("echo", "'echo' cannot be resumed (resume_token_ids)");
  }
}

// The prompt and the tokens asked for must fit in the model's context.
void check_fits(const ServedModel& model, const CompletionRequest& r) {
  const int max_tokens = r.sampling.max_tokens;
  if (max_tokens < 1) throw bad_field("max_tokens", "'max_tokens' must be >= 1");
  const int prompt_len = int(r.prompt.size());
  const std::string context = std::to_string(model.max_model_len);
  if (prompt_len >= model.max_model_len) {
    throw bad_field("prompt", "the prompt has " + std::to_string(prompt_len) +
                                  " tokens; this model's maximum context length is " + context);
  }
  if (max_tokens > model.max_model_len - prompt_len) {
    throw bad_field("max_tokens", "'max_tokens' is " + std::to_string(max_tokens) + " but only " +
                                      std::to_string(model.max_model_len - prompt_len) +
                                      " tokens fit after the " + std::to_string(prompt_len) +
                                      "-token prompt (maximum context length " + context + ")");
  }
}

}  // namespace

namespace {

json parse_body(std::string_view body) {
  json j;
  try {  // the last of duplicate keys would silently win: "max_tokens": 1, "max_tokens": 1000
    j = json::parse(body, unique_keys_callback(), /*allow_exceptions=*/false);
  } catch (const JsonDuplicateKeyError& e) {
    throw bad_field(text_excerpt(e.key()), e.what());
  }
  if (j.is_discarded()) throw ApiError(400, "the request body is not valid JSON");
  if (!j.is_object()) throw ApiError(400, "the request body must be a JSON object");
  return j;
}

void check_model(const json& j, const ServedModel& model) {
  if (!j.contains("model")) return;
  if (!j["model"].is_string()) throw bad_field("model", "'model' must be a string");
  if (!model.answers_to(j["model"].get<std::string>())) {
    throw ApiError(404,
                   "the model '" + text_excerpt(j["model"].get_ref<const std::string&>()) +
                       "' does not exist (this server serves " + model.names_text() + ")",
                   "model");
  }
}

}  // namespace

json parse_request_object(std::string_view body, ApiKind api, const ServedModel& model) {
  json j = parse_body(body);
  check_request_fields(j, api);
  check_model(j, model);
  return j;
}

json parse_request_object(std::string_view body, const std::set<std::string>& known,
                          const ServedModel& model) {
  json j = parse_body(body);
  for (const auto& [key, value] : j.items()) {
    if (!known.count(key)) {
      const std::string name = text_excerpt(key);  // a 500 KB name is not echoed whole
      throw bad_field(name, "unknown field '" + name + "'");
    }
  }
  check_model(j, model);
  return j;
}

std::vector<int32_t> read_token_ids(const json& v, const std::string& field, int32_t vocab_size) {
  std::vector<int32_t> ids;
  for (size_t i = 0; i < v.size(); ++i) {
    const json& t = v[i];
    if (!t.is_number_integer()) {
      throw bad_field(field, "'" + field + "' must be a string or an array of token ids");
    }
    const bool in_vocab = t.is_number_unsigned()
                              ? t.get<uint64_t>() < uint64_t(vocab_size)
                              : t.get<int64_t>() >= 0 && t.get<int64_t>() < vocab_size;
    if (!in_vocab) {
      throw bad_field(field, "token id " + t.dump() + " at position " + std::to_string(i) +
                                 " is outside the vocabulary [0, " + std::to_string(vocab_size) +
                                 ")");
    }
    ids.push_back(int32_t(t.get<int64_t>()));
  }
  return ids;
}

namespace {

// `resume_token_ids`: streamed only, and at least one of max_tokens must be left to generate.
void read_resumed(const json& j, const ServedModel& model, CompletionRequest& r) {
  if (!j.contains("resume_token_ids")) return;
  const json& v = j["resume_token_ids"];
  if (!v.is_array()) throw bad_field("resume_token_ids", "'resume_token_ids' must be an array");
  if (!r.stream) {
    throw bad_field(
        "resume_token_ids",
        "'resume_token_ids' needs \"stream\": true (a resumed answer goes on streaming)");
  }
  r.resumed = read_token_ids(v, "resume_token_ids", model.vocab_size);
  if (int64_t(r.resumed.size()) >= int64_t(r.sampling.max_tokens)) {
    throw bad_field("resume_token_ids",
                    "'resume_token_ids' has " + std::to_string(r.resumed.size()) +
                        " tokens; fewer than max_tokens (" + std::to_string(r.sampling.max_tokens) +
                        ") must be, so one is left to generate");
  }
}

// `kv_transfer`: {"export": true} (a prefill worker's part, answered whole) or {"source": {...}}
// (a decode worker's; the source is the server's to read, server/kv_handoff.h).
void read_kv_transfer(const json& j, CompletionRequest& r) {
  if (!j.contains("kv_transfer")) return;
  const json& v = j["kv_transfer"];
  const bool exports = v.is_object() && v.size() == 1 && v.contains("export") &&
                       v["export"].is_boolean() && v["export"].get<bool>();
  const bool reads =
      v.is_object() && v.size() == 1 && v.contains("source") && v["source"].is_object();
  if (!exports && !reads) {
    throw bad_field("kv_transfer",
                    "'kv_transfer' must be {\"export\": true} or {\"source\": {...}} (the "
                    "prefill/decode handoff, docs/disaggregation.md)");
  }
  if (exports && r.stream) {
    throw bad_field("kv_transfer", "'kv_transfer.export' needs a request that does not stream");
  }
  r.kv_export = exports;
  if (reads) r.kv_source = v["source"];
}

// The grammar a chat request's tool_choice asks for ("" for none).
StructuredOutput tool_choice_output(const ServedModel& model, const CompletionRequest& r) {
  static const ChatTemplate chatml;
  const ToolCallFormat format = (model.chat ? *model.chat : chatml).tool_call_format();
  return {"tool_choice", tool_call_gbnf(r.tools, format)};
}

// response_format / guided_* / structured_outputs, or tool_choice: a grammar over the model's
// vocabulary.
void read_structured_output(const json& j, std::string_view body, const ServedModel& model,
                            CompletionRequest& r) {
  static const char* const kFields[] = {"response_format", "guided_json",    "guided_regex",
                                        "guided_choice",   "guided_grammar", "structured_outputs"};
  StructuredOutput asked;
  if (std::any_of(std::begin(kFields), std::end(kFields),
                  [&](const char* f) { return j.contains(f); })) {
    asked = structured_output_gbnf(nlohmann::ordered_json::parse(body));
  }
  const StructuredOutput tools = tool_choice_output(model, r);
  if (!tools.gbnf.empty() && !asked.gbnf.empty()) {
    throw bad_field(asked.field,
                    "'tool_choice' and '" + asked.field + "' both constrain the output; give one");
  }
  if (!tools.gbnf.empty()) asked = tools;
  if (asked.gbnf.empty()) return;
  if (!model.tokenizer) {
    throw bad_field(asked.field, "structured output needs a text tokenizer, and " + model.name +
                                     " has none infergate can use");
  }
  try {
    r.sampling.grammar = model.grammars->get(asked.gbnf, *model.tokenizer);
  } catch (const GrammarError& e) {
    throw bad_field(asked.field, "'" + asked.field + "': " + e.what());
  }
}

}  // namespace

void read_shared_fields(const json& j, std::string_view body, const ServedModel& model,
                        CompletionRequest& r) {
  read_sampling(j, model, r.api, r.sampling);
  if (j.contains("stop")) r.stop = read_stop(j["stop"]);
  read_stream_options(j, r);
  read_resumed(j, model, r);
  read_kv_transfer(j, r);
  read_choices(j, r);
  read_structured_output(j, body, model, r);
  check_fits(model, r);
  try {
    r.sampling.validate(model.vocab_size);
  } catch (const std::invalid_argument& e) {
    const std::string message = e.what();  // "<field> must be ..."
    throw ApiError(400, message, message.substr(0, message.find(' ')));
  }
}

}  // namespace infergate
