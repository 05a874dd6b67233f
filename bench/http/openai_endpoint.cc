#include "bench/http/openai_endpoint.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <utility>

#include "bench/http/http_get_json.h"
#include "bench/http/target_access.h"

namespace infergate {

namespace {

using nlohmann::json;

std::string listed_ids(const json& models) {
  std::string ids;
  for (const json& m : models) {
    if (!m.is_object() || !m.contains("id")) continue;
    if (!ids.empty()) ids += ", ";
    ids += m["id"].dump();
  }
  return ids.empty() ? "none" : ids;
}

const json& find_model(const json& models, const std::string& name, const std::string& where) {
  for (const json& m : models) {
    if (m.is_object() && m.value("id", json()) == name) return m;
  }
  throw std::runtime_error(where + " does not list the model \"" + name +
                           "\" (target.model; listed: " + listed_ids(models) + ")");
}

void fill_from_models(OpenAiEndpoint& e, const TargetSpec& target) {
  const std::string where = "GET " + e.url.text() + "/v1/models";
  json doc;
  try {
    doc = http_get_json(e.url, "/v1/models", e.access, std::min(e.timeout_s, 30.0));
  } catch (const std::exception& ex) {
    throw std::runtime_error(std::string(ex.what()) +
                             " (asked because the workload leaves out target.model or "
                             "target.vocab_size; set both to run without asking)");
  }
  const json models = doc.is_object() ? doc.value("data", json::array()) : json::array();
  if (!models.is_array() || models.empty()) {
    throw std::runtime_error(where + " lists no models; set target.model");
  }
  if (e.model.empty()) e.model = models[0].value("id", std::string());
  const json& model = find_model(models, e.model, where);
  if (target.vocab_size > 0) return;
  const json size = model.value("vocab_size", json());
  if (size.is_null() && e.tokenizer) {
    e.vocab_size = e.tokenizer->tokenizer->vocab_size();
    return;
  }
  if (!size.is_number_integer() || size.get<int64_t>() < 1 || size.get<int64_t>() > INT32_MAX) {
    throw std::runtime_error(
        "target.vocab_size is not set, and " + where + " gives no vocab_size for \"" + e.model +
        "\": set target.vocab_size to the model's vocabulary size (the dataset draws token ids "
        "below it)");
  }
  e.vocab_size = size.get<int32_t>();
}

}  // namespace

// A tokenizer with ids beyond the server's vocabulary is another model's.
void check_tokenizer_fits(const OpenAiEndpoint& e) {
  if (!e.tokenizer || e.tokenizer->tokenizer->vocab_size() <= e.vocab_size) return;
  throw std::runtime_error("target.tokenizer has " +
                           std::to_string(e.tokenizer->tokenizer->vocab_size()) +
                           " tokens, more than the vocabulary of \"" + e.model + "\" (" +
                           std::to_string(e.vocab_size) + "): it is not that model's tokenizer");
}

OpenAiEndpoint resolve_openai_endpoint(const TargetSpec& target,
                                       std::optional<DatasetTokenizer> tokenizer) {
  OpenAiEndpoint e;
  e.tokenizer = std::move(tokenizer);
  try {
    e.url = parse_http_url(target.url);
  } catch (const std::invalid_argument& ex) {
    throw std::runtime_error(std::string("target.url: ") + ex.what());
  }
  e.api = target.api;
  e.model = target.model_name;
  e.vocab_size = target.vocab_size;
  e.timeout_s = target.timeout_s;
  e.access = target_access(target);
  e.think = {target.think_open, target.think_close};
  if (e.model.empty() || e.vocab_size <= 0) fill_from_models(e, target);
  check_tokenizer_fits(e);
  return e;
}

}  // namespace infergate
