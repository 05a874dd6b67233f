// Structured output in the engine: every answer under a grammar is a sentence of it, sampled
// or greedy, with speculation or without (greedy: the same tokens), and the end comes only
// where the grammar is complete.
#include <catch2/catch.hpp>
#include <set>

#include "../speculative_rig.h"
#include "engine/grammar/gbnf_parser.h"
#include "engine/tokenizer/byte_tokenizer.h"

using namespace infergate;
using namespace infergate::testing;

namespace {

// The synthetic target's vocabulary as a trie: its tokens' bytes through its own tokenizer.
std::shared_ptr<const TokenTrie> target_vocabulary() {
  static const auto trie = [] {
    const ByteTokenizer tokenizer(spec_target().vocab);
    std::vector<std::string> bytes;
    for (int32_t id = 0; id < tokenizer.vocab_size(); ++id) {
      bytes.push_back(tokenizer.decode_token(id));
    }
    return std::make_shared<const TokenTrie>(std::move(bytes), std::vector<bool>{});
  }();
  return trie;
}

std::shared_ptr<const TokenGrammar> compile(const char* gbnf) {
  return std::make_shared<const TokenGrammar>(std::make_shared<Grammar>(parse_gbnf(gbnf)),
                                              target_vocabulary());
}

bool is_sentence(const char* gbnf, const Tokens& tokens) {
  GrammarMatcher m(std::make_shared<Grammar>(parse_gbnf(gbnf)));
  std::string text;
  for (int32_t t : tokens) {
    if (t == spec_target().config.eos_token_id) break;
    text += target_vocabulary()->bytes(t);
  }
  return m.accept(text) && m.complete();
}

const char* const kRecord = R"(
  root ::= "{\"id\":" [1-9] [0-9]{0,3} ",\"tags\":[" (tag ("," tag){0,3})? "]}"
  tag ::= "\"" [a-z]{1,6} "\"")";

}  // namespace

TEST_CASE("every sampled answer under a grammar is one of its sentences, ended by EOS",
          "[engine][grammar]") {
  SamplingParams p;
  p.max_tokens = 120;
  p.temperature = 1.0f;
  p.grammar = compile(kRecord);
  const SpecRun run = run_prompts(EngineConfig{}, spec_prompts(12), p, /*seed_each=*/true);
  std::set<Tokens> distinct;
  for (const Tokens& t : run.tokens) {
    INFO(target_vocabulary()->bytes(t.front()));
    CHECK(is_sentence(kRecord, t));
    CHECK(t.back() == spec_target().config.eos_token_id);  // the end, not max_tokens
    distinct.insert(t);
  }
  CHECK(distinct.size() > 6u);  // sampling still chooses within the grammar
  const TokenMaskStats stats = p.grammar->stats();
  CHECK(stats.cache_hits > 0);  // the digits and letters loops revisit their states
}

TEST_CASE("greedy answers under a grammar are the same with speculation", "[engine][grammar]") {
  SamplingParams p;
  p.max_tokens = 80;
  p.grammar = compile(R"(root ::= ("ab" | "abc" | [a-e]) (" " ("ab" | "abc" | [a-e])){0,30})");
  const std::vector<Tokens> prompts = spec_prompts(6);
  const SpecRun plain = run_prompts(EngineConfig{}, prompts, p);
  EngineConfig speculating;
  speculating.speculative_method = SpeculativeMethod::kNgram;
  speculating.speculative_num_tokens = 4;
  const SpecRun spec = run_prompts(speculating, prompts, p);
  CHECK(spec.tokens == plain.tokens);
  for (const Tokens& t : plain.tokens)
    CHECK(is_sentence(R"(root ::= ("ab" | "abc" | [a-e]) (" " ("ab" | "abc" | [a-e])){0,30})", t));
}

TEST_CASE("jump-forward drafts the forced bytes, and the answers stay those without it",
          "[engine][grammar]") {
  // Keys and punctuation are forced; greedy verification keeps exactly the plain tokens.
  const char* keys = R"(root ::= "{\"first\":" [a-z] ",\"second\":" [a-z] ",\"third\":" [a-z] "}")";
  SamplingParams p;
  p.max_tokens = 80;
  p.grammar = compile(keys);
  const std::vector<Tokens> prompts = spec_prompts(4);
  const SpecRun run = run_prompts(EngineConfig{}, prompts, p);
  CHECK(run.stats.grammar_forced_drafted > 0);
  CHECK(run.stats.grammar_forced_accepted > 0);
  CHECK(run.stats.grammar_masks > 0);
  CHECK(run.stats.spec_num_drafts == 0);  // not counted as speculation
  for (const Tokens& t : run.tokens) CHECK(is_sentence(keys, t));
  // The forced tokens through the trie are the forced bytes, longest token first.
  GrammarMatcher start = p.grammar->start();
  std::string spelled;
  for (int32_t t : p.grammar->forced_tokens(start, 64)) spelled += target_vocabulary()->bytes(t);
  CHECK(spelled == "{\"first\":");
}

TEST_CASE("a grammar refuses ignore_eos and a vocabulary of another size", "[engine][grammar]") {
  SamplingParams p;
  p.grammar = compile(R"(root ::= "a")");
  p.ignore_eos = true;
  CHECK_THROWS_WITH(p.validate(512), Catch::StartsWith("ignore_eos cannot be combined"));
  p.ignore_eos = false;
  CHECK_THROWS_WITH(p.validate(1000), Catch::StartsWith("grammar is over a vocabulary of 512"));
}

TEST_CASE("a resumed answer continues the grammar where the first replica left it",
          "[engine][grammar]") {
  // The router resumes a broken stream elsewhere with the tokens already out appended to the
  // prompt: the grammar must start past them, or it would ask for the answer from the top.
  SamplingParams p;
  p.max_tokens = 80;
  p.grammar = compile(kRecord);
  const std::vector<Tokens> prompts = spec_prompts(3);
  const SpecRun whole = run_prompts(EngineConfig{}, prompts, p);
  std::vector<Tokens> resumed_prompts;
  std::vector<Tokens> rest;
  SamplingParams resumed = p;
  resumed.grammar_resumed_tokens = 5;
  resumed.max_tokens = p.max_tokens - 5;
  for (size_t i = 0; i < prompts.size(); ++i) {
    REQUIRE(whole.tokens[i].size() > 5u);
    Tokens prompt = prompts[i];
    prompt.insert(prompt.end(), whole.tokens[i].begin(), whole.tokens[i].begin() + 5);
    resumed_prompts.push_back(prompt);
    rest.emplace_back(whole.tokens[i].begin() + 5, whole.tokens[i].end());
  }
  CHECK(run_prompts(EngineConfig{}, resumed_prompts, resumed).tokens == rest);

  // Tokens the grammar never allowed are a refusal, not a silent restart.
  EngineConfig config;
  config.num_threads = 1;
  Engine engine(config, spec_target());
  Tokens bad = prompts[0];
  bad.push_back(bad.front() == 2 ? 3 : 2);  // a token no sentence starts with
  resumed.grammar_resumed_tokens = 1;
  CHECK_THROWS_WITH(engine.add_request("bad", bad, resumed),
                    Catch::Contains("does not follow the request's grammar"));
}
