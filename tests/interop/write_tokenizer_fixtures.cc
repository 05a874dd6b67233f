// write_tokenizer_fixtures DIR: the fixtures for tests/interop/llama_cpp_tokenize.mjs, which
// compares these encodings with llama.cpp's: two GGUF models (a llama SentencePiece vocabulary
// with overlapping scored pieces, a gpt2 vocabulary with merges trained on a small corpus) and
// DIR/cases.json holding our ids and decoded text for each test string. A tool, not a test: it
// checks nothing itself. Exit 0 written, 1 a write failed, 2 usage.
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "engine/model/gguf_tokenizer_data.h"
#include "engine/model/gguf_writer.h"
#include "engine/tokenizer/gpt2_byte_map.h"
#include "engine/tokenizer/pre_tokenizer.h"
#include "engine/tokenizer/tokenizer.h"
#include "engine/tokenizer/utf8.h"
#include "tests/engine/gpt2_test_vocab.h"
#include "tests/engine/model_formats_util.h"

using namespace infergate;

namespace {

constexpr int kVocabSize = 512;
const std::string kSpace = "\xE2\x96\x81";  // ▁

const char* const kCorpus =
    "hello world the quick brown fox jumps over the lazy dog and then the dog sleeps while "
    "the tokenizer splits every sentence into pieces that a transformer can read: infergate "
    "interop with llama compares tokens token by token, caf\xC3\xA9 na\xC3\xAFve "
    "\xC3\xBC"
    "ber stra\xC3\x9F"
    "e \xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xE4\xB8\xAD\xE6\x96\x87";

std::vector<std::string> utf8_chars(const std::string& s) {
  std::vector<std::string> chars;
  for (size_t pos = 0; pos < s.size();) {
    const size_t n = utf8_next(s, pos).size;
    chars.push_back(s.substr(pos, n));
    pos += n;
  }
  return chars;
}

// Deterministic pseudo-random score in [-10, 0) for a piece.
float score_of(const std::string& piece) {
  uint32_t h = 2166136261u;
  for (char c : piece) h = (h ^ static_cast<uint8_t>(c)) * 16777619u;
  return -10.0f + static_cast<float>(h % 10000) / 1000.0f;
}

// <unk> <s> </s>, the byte tokens, "▁", the corpus characters, then the substrings (2 to 6
// characters) of the corpus from its start, with "▁" before each word, scored pseudo-randomly,
// until the vocabulary is full.
Vocabulary spm_vocab() {
  Vocabulary v;
  v.model = "llama";
  v.tokens = {"<unk>", "<s>", "</s>"};
  v.types = {TokenType::kUnknown, TokenType::kControl, TokenType::kControl};
  v.scores = {0, 0, 0};
  for (int b = 0; b < 256; ++b) {
    char name[8];
    std::snprintf(name, sizeof(name), "<0x%02X>", b);
    v.tokens.push_back(name);
    v.types.push_back(TokenType::kByte);
    v.scores.push_back(0);
  }
  std::set<std::string> seen(v.tokens.begin(), v.tokens.end());
  auto add = [&](const std::string& piece, float score) {
    if (static_cast<int>(v.tokens.size()) >= kVocabSize || !seen.insert(piece).second) return;
    v.tokens.push_back(piece);
    v.types.push_back(TokenType::kNormal);
    v.scores.push_back(score);
  };
  add(kSpace, -20);
  std::string escaped;
  for (char c : std::string(" ") + kCorpus) escaped += c == ' ' ? kSpace : std::string(1, c);
  const std::vector<std::string> chars = utf8_chars(escaped);
  for (const std::string& c : chars) add(c, -15);
  for (size_t i = 0; i < chars.size(); ++i) {
    for (size_t len = 2; len <= 6 && i + len <= chars.size(); ++len) {
      std::string piece;
      for (size_t k = i; k < i + len; ++k) piece += chars[k];
      // Pieces end before a space mark: "▁" only starts a word.
      if (piece.rfind(kSpace) != std::string::npos && piece.rfind(kSpace) != 0) continue;
      add(piece, score_of(piece));
    }
  }
  while (static_cast<int>(v.tokens.size()) < kVocabSize) {
    add("<unused" + std::to_string(v.tokens.size()) + ">", -100);
    v.types.back() = TokenType::kUnused;
  }
  return v;
}

// The 256 byte characters, then merges learned from the corpus (the most frequent adjacent
// pair of each round, the smallest on ties), then <|endoftext|>.
Vocabulary gpt2_vocab() {
  Vocabulary v;
  v.model = "gpt2";
  for (int b = 0; b < 256; ++b) v.tokens.push_back(gpt2_bytes_to_text(std::string(1, char(b))));
  std::set<std::string> seen(v.tokens.begin(), v.tokens.end());
  std::vector<std::vector<std::string>> words;
  const std::vector<PreTokenizerStep> gpt2 = {PreTokenizerStep::byte_level(false, true)};
  for (const PreTokenPiece& w : pre_tokenize(gpt2, kCorpus, true)) {
    words.push_back(utf8_chars(w.text));
  }
  while (static_cast<int>(v.tokens.size()) < kVocabSize - 1) {
    std::map<std::pair<std::string, std::string>, int> counts;
    for (const auto& w : words) {
      for (size_t i = 1; i < w.size(); ++i) ++counts[{w[i - 1], w[i]}];
    }
    if (counts.empty()) break;
    auto best = counts.begin();
    for (auto it = counts.begin(); it != counts.end(); ++it) {
      if (it->second > best->second) best = it;
    }
    const auto [left, right] = best->first;
    v.merges.push_back(left + " " + right);
    if (seen.insert(left + right).second) v.tokens.push_back(left + right);
    for (auto& w : words) {
      std::vector<std::string> merged;
      for (size_t i = 0; i < w.size(); ++i) {
        if (i + 1 < w.size() && w[i] == left && w[i + 1] == right) {
          merged.push_back(left + right);
          ++i;
        } else {
          merged.push_back(w[i]);
        }
      }
      w = std::move(merged);
    }
  }
  finish_gpt2_vocab(v, kVocabSize);
  return v;
}

nlohmann::json write_model(const std::string& dir, const std::string& name, const Vocabulary& vocab,
                           const std::vector<std::string>& texts) {
  ModelConfig config = testing::micro_config();
  config.vocab_size = kVocabSize;
  ModelWeights w = make_synthetic_model(config, 7);
  w.vocab = vocab;
  const std::string path = dir + "/" + name + ".gguf";
  write_gguf(w, path);
  // Tokenize as a server would: from what the file says, not from `vocab`.
  const GgufTokenizerData data = read_gguf_tokenizer(path);
  const std::unique_ptr<Tokenizer> tok =
      make_tokenizer(data.vocab, data.pre, data.add_space_prefix);
  nlohmann::json cases = nlohmann::json::array();
  for (const std::string& text : texts) {
    const std::vector<int32_t> ids = tok->encode(text, false);
    cases.push_back({{"text", text}, {"ids", ids}, {"decoded", tok->decode(ids)}});
  }
  return {{"name", name}, {"gguf", path}, {"cases", cases}};
}

void write_fixtures(const std::string& dir) {
  // Everything the SentencePiece path meets: spaces anywhere, punctuation, digits, byte
  // fallback (characters outside the vocabulary), multi-byte characters inside it.
  const std::vector<std::string> spm_texts = {
      "hello world",
      "Hello World",
      "the quick brown fox jumps over the lazy dog",
      "  leading and trailing spaces  ",
      "multiple   spaces\tand\ttabs\nand\n\nnewlines",
      "tokenizer interop: infergate vs llama, token by token!",
      "numbers 12345 and 3.14159",
      "caf\xC3\xA9 na\xC3\xAFve \xC3\xBC"
      "ber stra\xC3\x9F"
      "e",
      "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xE4\xB8\xAD\xE6\x96\x87 "
      "\xE6\x97\xA5\xE6\x9C\xAC\xE8\xAA\x9E",
      "emoji \xF0\x9F\x98\x80\xF0\x9F\x9A\x80 end",
      "x",
      " ",
      "sleepsleepsleep thethethe",
  };
  // llama.cpp reads no tokenizer.ggml.pre in write_gguf's files and falls back to its "default"
  // pre-tokenizer, which also splits punctuation and digit runs: letters and spaces only here.
  const std::vector<std::string> gpt2_texts = {
      "hello world",
      "Hello World",
      "the quick brown fox jumps over the lazy dog",
      "  leading and trailing spaces  ",
      "multiple   spaces\tand\ttabs\nand\n\nnewlines",
      "the tokenizer splits every sentence into pieces",
      "caf\xC3\xA9 na\xC3\xAFve \xC3\xBC"
      "ber stra\xC3\x9F"
      "e",
      "\xD0\xBF\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82 \xE4\xB8\xAD\xE6\x96\x87",
      "sleepsleepsleep thethethe",
      "x",
  };
  const nlohmann::json out = {{"models",
                               {write_model(dir, "spm", spm_vocab(), spm_texts),
                                write_model(dir, "gpt2", gpt2_vocab(), gpt2_texts)}}};
  std::ofstream cases(dir + "/cases.json");
  cases << out.dump(2) << "\n";
  cases.close();
  if (!cases) throw std::runtime_error(dir + "/cases.json: cannot write");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: write_tokenizer_fixtures DIR\n";
    return 2;
  }
  try {
    write_fixtures(argv[1]);
  } catch (const std::exception& e) {
    std::cerr << "write_tokenizer_fixtures: " << e.what() << "\n";
    return 1;
  }
  std::cout << "wrote " << argv[1] << "/cases.json\n";
  return 0;
}
