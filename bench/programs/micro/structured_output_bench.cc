// What structured output costs, on the trained model (models/trained): the same 8 prompts
// decoded greedily without a grammar, under a JSON schema with jump-forward, and under it
// without, in one process (so the ratios come from one run):
//   BM_StructuredDecode/0   no grammar, 96 tokens each (EOS ignored)
//   BM_StructuredDecode/1   a nested JSON schema (up to 400 tokens: each answer ends by itself),
//                           jump-forward on (the default)
//   BM_StructuredDecode/2   the same schema, jump-forward off
// Counters: tpot_ms (decode time per output token after the first, mean over requests),
// tokens_per_pass (tokens one target forward gave a sequence), mask_us (the token mask's time
// per masked row, cached masks included), mask_hit (the share of masks found cached),
// forced_accepted (jump-forward tokens the target kept, per request). A fresh grammar each
// iteration: its masks start cold, as for a schema the server has not seen.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "engine/core/engine.h"
#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/json_schema_grammar.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"
#include "engine/model/model_tokenizer.h"

namespace infergate::bench {
namespace {

constexpr const char* kSchema = R"({
  "type": "object",
  "properties": {
    "id": {"type": "integer", "minimum": 1, "maximum": 99999},
    "customer": {"type": "object",
                 "properties": {"name": {"type": "string", "maxLength": 24},
                                "email": {"type": ["string", "null"], "maxLength": 32}},
                 "required": ["name", "email"]},
    "items": {"type": "array", "minItems": 1, "maxItems": 3,
              "items": {"type": "object",
                        "properties": {"sku": {"type": "string", "maxLength": 10},
                                       "quantity": {"type": "integer", "minimum": 1,
                                                    "maximum": 99}},
                        "required": ["sku", "quantity"]}},
    "status": {"enum": ["new", "paid", "shipped"]}
  },
  "required": ["id", "customer", "items", "status"]
})";

struct Trained {
  ModelWeights weights;
  ModelTokenizer tokenizer;
  std::shared_ptr<const TokenTrie> vocabulary;
};

const Trained& trained() {
  static const Trained t = [] {
    const ModelSource source = parse_model_argument("trained", 0);
    Trained out{load_model(source), {}, nullptr};
    out.tokenizer = load_model_tokenizer(source, out.weights.vocab);
    std::vector<std::string> bytes;
    for (int32_t id = 0; id < out.tokenizer.tokenizer->vocab_size(); ++id) {
      bytes.push_back(out.tokenizer.tokenizer->decode_token(id));
    }
    out.vocabulary = std::make_shared<TokenTrie>(std::move(bytes), std::vector<bool>{});
    return out;
  }();
  return t;
}

std::vector<std::vector<int32_t>> prompts() {
  const char* asks[] = {
      "Write the order as JSON: ",    "An order record:\n",  "order = ", "# the customer's order\n",
      "JSON for the shipped order: ", "Return the order.\n", "data = ",  "The order, serialized: "};
  std::vector<std::vector<int32_t>> out;
  for (const char* ask : asks) out.push_back(trained().tokenizer.tokenizer->encode(ask, true));
  return out;
}

void BM_StructuredDecode(benchmark::State& state) {
  const int mode = int(state.range(0));
  EngineConfig config;
  config.num_threads = 2;
  config.prefix_caching = false;
  config.grammar_jump_forward = mode != 2;
  Engine engine(config, trained().weights);
  const std::string gbnf = json_schema_to_gbnf(nlohmann::ordered_json::parse(kSchema));
  double tpot_sum = 0, mask_ns = 0, masks = 0, passes = 0, tokens = 0, forced = 0, requests = 0;
  for (auto _ : state) {
    SamplingParams params;
    params.max_tokens = mode == 0 ? 96 : 400;  // room for the whole object
    params.ignore_eos = mode == 0;
    if (mode != 0) {
      params.grammar = std::make_shared<const TokenGrammar>(
          std::make_shared<Grammar>(parse_gbnf(gbnf)), trained().vocabulary);
    }
    const EngineStats before = engine.stats();
    for (const std::vector<int32_t>& prompt : prompts()) {  // one user at a time: TPOT alone
      std::vector<int64_t> times;
      engine.add_request("r", prompt, params);
      while (engine.has_unfinished()) {
        for (const RequestOutput& o : engine.step()) {
          times.insert(times.end(), o.token_times_ns.begin(), o.token_times_ns.end());
        }
      }
      if (times.size() > 1) {
        tpot_sum += double(times.back() - times.front()) / double(times.size() - 1) * 1e-6;
        ++requests;
      }
    }
    const EngineStats after = engine.stats();
    mask_ns += double(after.grammar_mask_ns - before.grammar_mask_ns);
    masks += double(after.grammar_masks - before.grammar_masks);
    passes += double(after.num_sampling_passes - before.num_sampling_passes);
    tokens += double(after.num_generated_tokens - before.num_generated_tokens);
    forced += double(after.grammar_forced_accepted - before.grammar_forced_accepted);
    if (params.grammar) {
      const TokenMaskStats s = params.grammar->stats();
      state.counters["mask_hit"] = double(s.cache_hits) / double(std::max<int64_t>(s.masks, 1));
    }
  }
  state.counters["tpot_ms"] = tpot_sum / std::max(requests, 1.0);
  state.counters["tokens_per_pass"] = tokens / std::max(passes, 1.0);
  state.counters["mask_us"] = masks > 0 ? mask_ns / masks * 1e-3 : 0;
  state.counters["forced_accepted"] = forced / std::max(requests, 1.0);
  state.counters["tokens_per_request"] = tokens / std::max(requests, 1.0);
}
BENCHMARK(BM_StructuredDecode)->Arg(0)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace infergate::bench
