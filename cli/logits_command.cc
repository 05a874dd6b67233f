#include "cli/logits_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "engine/forward/cpu/sequence_logits.h"
#include "engine/forward/reference_forward.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"
#include "kernels/cpu/thread_pool.h"
#include "kernels/tensor.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// Parses "1,5,9,200" into token ids; throws std::invalid_argument naming the bad item.
std::vector<int32_t> parse_tokens(const std::string& list) {
  std::vector<int32_t> tokens;
  size_t start = 0;
  while (start <= list.size()) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    const std::string item = list.substr(start, end - start);
    size_t used = 0;
    long long id = -1;
    try {
      id = std::stoll(item, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (item.empty() || used != item.size() || id < 0 || id > INT32_MAX) {
      throw std::invalid_argument("--tokens: '" + item +
                                  "' is not a token id (expected e.g. 1,5,9,200)");
    }
    tokens.push_back(static_cast<int32_t>(id));
    start = end + 1;
  }
  return tokens;
}

// --prompt through the model's own tokenizer, the one `serve` and `generate` use.
std::vector<int32_t> tokenize_prompt(const std::string& prompt, const ModelSource& source,
                                     const Vocabulary& vocab) {
  const ModelTokenizer t = load_model_tokenizer(source, vocab);
  std::cerr << "tokenizer: " + t.description + "\n";  // one write: no other output inside it
  if (!t.tokenizer) {
    throw std::invalid_argument("--prompt: the model has no text tokenizer (" + t.description +
                                "); give --tokens");
  }
  std::vector<int32_t> tokens = t.tokenizer->encode(prompt, t.add_bos);
  if (tokens.empty()) throw std::invalid_argument("--prompt: no token of the vocabulary spells it");
  return tokens;
}

std::vector<float> optimized_logits(const ModelWeights& w, const std::vector<int32_t>& tokens,
                                    int threads) {
  ThreadPool pool(threads);
  return sequence_logits(w, tokens, pool);
}

// The k largest logits of a row as [id, logit] pairs, largest first (the lower id on a tie).
nlohmann::json largest_logits(const std::vector<float>& row, int64_t k) {
  std::vector<int32_t> ids(row.size());
  for (size_t i = 0; i < ids.size(); ++i) ids[i] = static_cast<int32_t>(i);
  std::partial_sort(ids.begin(), ids.begin() + k, ids.end(), [&](int32_t a, int32_t b) {
    return row[size_t(a)] > row[size_t(b)] || (row[size_t(a)] == row[size_t(b)] && a < b);
  });
  nlohmann::json pairs = nlohmann::json::array();
  for (int64_t i = 0; i < k; ++i) pairs.push_back({ids[size_t(i)], row[size_t(ids[size_t(i)])]});
  return pairs;
}

}  // namespace

int logits_command(int argc, char** argv) {
  std::string model = "tiny", dtype = "auto", token_list, prompt;
  uint64_t seed = 0;
  int threads = 0;
  int64_t top = 0;
  po::options_description desc("infergate logits --tokens IDS | --prompt TEXT [options]");
  desc.add_options()("help,h", "show this help")("model", po::value(&model)->default_value(model),
                                                 kModelArgumentHelp)(
      "model-seed", po::value(&seed)->default_value(0), "seed of synthetic weights")(
      "dtype", po::value(&dtype)->default_value(dtype),
      "convert matrices first: auto (as loaded) | f32 | f16 | bf16 | q8_0 | q4_0 | q4_1 | q4_k | "
      "q5_0 | q5_1 | q2_k | q3_k | q5_k | q6_k | iq4_nl | iq4_xs | fp8 | w8a8")(
      "tokens", po::value(&token_list), "comma-separated token ids, e.g. 1,5,9,200")(
      "prompt", po::value(&prompt), "text, tokenized by the model's own tokenizer (as serve)")(
      "reference",
      "use the reference forward pass (double accumulation) instead of the optimized one")(
      "threads", po::value(&threads)->default_value(0), "optimized path threads (0: all cores)")(
      "top", po::value(&top)->default_value(0),
      "write each position's K largest logits as [id, logit], largest first, instead of every "
      "logit (0: every logit)");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (vm.count("tokens") == vm.count("prompt")) {
    throw std::invalid_argument("give exactly one of --tokens and --prompt");
  }
  // An empty prompt would answer the logits of the BOS token alone (or of nothing).
  if (vm.count("prompt") && prompt.empty()) {
    throw std::invalid_argument("--prompt is empty (give some text, or --tokens)");
  }
  std::vector<int32_t> tokens;
  if (vm.count("tokens")) tokens = parse_tokens(token_list);
  if (top < 0) throw std::invalid_argument("--top " + std::to_string(top) + " is negative");
  const ModelSource source = parse_model_argument(model, seed);
  ModelWeights weights = load_model(source);
  if (vm.count("prompt")) tokens = tokenize_prompt(prompt, source, weights.vocab);
  weights.apply_weight_dtype(dtype);
  const int vocab = weights.config.vocab_size;
  for (int32_t t : tokens) {
    if (t >= vocab) {
      throw std::invalid_argument("--tokens: id " + std::to_string(t) +
                                  " is out of range (vocab_size " + std::to_string(vocab) + ")");
    }
  }
  if (static_cast<int64_t>(tokens.size()) > weights.config.max_position_embeddings) {
    throw std::invalid_argument("--tokens: " + std::to_string(tokens.size()) +
                                " tokens exceed max_position_embeddings " +
                                std::to_string(weights.config.max_position_embeddings));
  }
  const std::vector<float> logits = vm.count("reference")
                                        ? reference_forward(weights, tokens)
                                        : optimized_logits(weights, tokens, threads);
  if (top > vocab) {
    throw std::invalid_argument("--top " + std::to_string(top) + " exceeds vocab_size " +
                                std::to_string(vocab));
  }
  nlohmann::json rows = nlohmann::json::array();
  for (size_t p = 0; p < tokens.size(); ++p) {
    const auto first = logits.begin() + static_cast<std::ptrdiff_t>(p * static_cast<size_t>(vocab));
    const std::vector<float> row(first, first + vocab);
    rows.push_back(top > 0 ? largest_logits(row, top) : nlohmann::json(row));
  }
  const nlohmann::json out = {
      {"vocab_size", vocab}, {"tokens", tokens}, {top > 0 ? "top" : "logits", rows}};
  std::cout << out.dump() << "\n";
  return 0;
}

}  // namespace infergate
