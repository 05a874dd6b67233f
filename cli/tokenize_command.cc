#include "cli/tokenize_command.h"

#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/command_line.h"
#include "common/io/input_file.h"
#include "common/io/json_file.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_config.h"
#include "engine/model/model_tokenizer.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

// Texts to tokenize: at most this many bytes from --file.
constexpr uint64_t kMaxTokenizeFileBytes = uint64_t(256) << 20;

// The tokenizer `model` names, without loading weights: a GGUF's own, a directory's
// tokenizer.json, or the byte tokenizer of a preset or a config.json shape.
ModelTokenizer tokenizer_of(const std::string& model) {
  const ModelSource source = parse_model_argument(model, 0);
  Vocabulary vocab;
  if (source.kind == "synthetic")
    vocab = synthetic_vocabulary(preset_config(source.preset).vocab_size);
  ModelTokenizer t = load_model_tokenizer(source, vocab);
  if (!t.tokenizer) throw std::invalid_argument("--model " + model + ": " + t.description);
  return t;
}

// --chat FILE: a list of messages, or {"messages": [...], "tools": [...]}, through the model's
// chat template with the generation prompt, as a server renders a chat request.
struct ChatInput {
  std::string path;
  nlohmann::ordered_json messages, tools;
};

ChatInput read_chat(const std::string& path) {
  const nlohmann::json doc = read_json_file(path);
  const nlohmann::json messages = doc.is_array() ? doc : doc.value("messages", nlohmann::json());
  if (!messages.is_array() || messages.empty()) {
    throw std::invalid_argument(path + ": expected a list of messages or {\"messages\": [...]}");
  }
  const nlohmann::ordered_json tools =
      doc.is_object() && doc.contains("tools") ? nlohmann::ordered_json(doc["tools"]) : nullptr;
  return {path, nlohmann::ordered_json(messages), tools};
}

std::string render_chat(const ChatInput& input, const ChatTemplate& chat) {
  try {
    return chat.render(input.messages, true, input.tools);
  } catch (const jinja::TemplateError& e) {
    throw std::invalid_argument(input.path + ": the chat template refused it: " + e.what());
  }
}

std::string text_of(const po::variables_map& vm) {
  if (vm.count("text")) return vm["text"].as<std::string>();
  return read_regular_file(vm["file"].as<std::string>(), kMaxTokenizeFileBytes);
}

nlohmann::json pieces_of(const Tokenizer& t, const std::vector<int32_t>& ids) {
  nlohmann::json pieces = nlohmann::json::array();
  for (int32_t id : ids) {
    pieces.push_back(nlohmann::json(t.decode_token(id))
                         .dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  }
  return pieces;
}

void print(const Tokenizer& t, const std::vector<int32_t>& ids, const std::string& format) {
  if (format == "ids") {
    std::cout << nlohmann::json(ids).dump() << "\n";
    return;
  }
  const nlohmann::json pieces = pieces_of(t, ids);
  if (format == "pieces") {
    std::cout << "[";
    for (size_t i = 0; i < pieces.size(); ++i)
      std::cout << (i ? ", " : "") << pieces[i].get<std::string>();
    std::cout << "]\n";
    return;
  }
  for (size_t i = 0; i < ids.size(); ++i) {
    std::cout << ids[i] << " -> " << pieces[i].get<std::string>() << "\n";
  }
}

// --lines: one JSON line per line of the text (without its "\n"): its ids and their decoding.
void print_lines(const Tokenizer& t, const std::string& text, bool add_special) {
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::vector<int32_t> ids = t.encode(text.substr(start, end - start), add_special);
    const nlohmann::json line = {{"ids", ids}, {"decoded", t.decode(ids)}};
    std::cout << line.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    start = end + 1;
  }
}

// --bench: `encode` (the whole text's ids) `reps` times; prints the best time as a JSON line.
void bench(const std::function<std::vector<int32_t>()>& encode, size_t bytes, int reps) {
  double best = 1e300;
  size_t tokens = 0;
  for (int r = 0; r < reps; ++r) {
    const auto start = std::chrono::steady_clock::now();
    tokens = encode().size();
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  const nlohmann::json line = {{"bytes", bytes},
                               {"tokens", tokens},
                               {"reps", reps},
                               {"best_s", best},
                               {"mb_per_s", double(bytes) / 1e6 / best}};
  std::cout << line.dump() << "\n";
}

}  // namespace

int tokenize_command(int argc, char** argv) {
  std::string model = "trained";
  po::options_description desc("infergate tokenize --model M (--text T | --file F) [options]");
  desc.add_options()("help,h", "show this help")(
      "model", po::value(&model)->default_value(model),
      "a .gguf file (its own vocabulary), a directory with tokenizer.json (no weights needed), a "
      "preset or a config.json (the synthetic byte vocabulary)")(
      "text", po::value<std::string>(), "the text")("file", po::value<std::string>(),
                                                    "a file holding the text (at most 256 MiB)")(
      "chat", po::value<std::string>(),
      "a JSON file of chat messages (or {\"messages\", \"tools\"}): tokenize what the model's "
      "chat template makes of them, with the generation prompt, as serve does")(
      "show-text", "print the text first (the rendered chat with --chat)")(
      "ids", "print only the ids, as a JSON list")("pieces",
                                                   "print only each token's text, as a list")(
      "lines",
      "tokenize each line of the text by itself; print a JSON line per line: its "
      "\"ids\" and \"decoded\" (the ids decoded again)")(
      "bench", po::value<int>(),
      "encode the whole text N times (1..1000) and print the best time as JSON: bytes, tokens, "
      "best_s, mb_per_s; with --chat each time renders the template too, as a chat request's "
      "prompt count does")(
      "no-special",
      "add no special tokens (BOS) around the text; special tokens written in the "
      "text are still recognized, as Hugging Face's add_special_tokens=False");
  const auto parsed = parse_command_line(argc, argv, desc);
  if (!parsed) return 0;
  const po::variables_map& vm = *parsed;
  if (vm.count("ids") + vm.count("pieces") + vm.count("lines") + vm.count("bench") > 1) {
    throw std::invalid_argument("give at most one of --ids, --pieces, --lines and --bench");
  }
  if (vm.count("text") + vm.count("file") + vm.count("chat") != 1) {
    throw std::invalid_argument("give exactly one of --text, --file and --chat");
  }
  const ModelTokenizer t = tokenizer_of(model);
  const bool chat = vm.count("chat") > 0;
  const std::optional<ChatInput> chat_input =
      chat ? std::optional<ChatInput>(read_chat(vm["chat"].as<std::string>())) : std::nullopt;
  const std::string text = chat ? render_chat(*chat_input, t.chat) : text_of(vm);
  // A chat template writes its own BOS (apply_chat_template's add_special_tokens=False).
  const bool add_special =
      t.add_bos && vm.count("no-special") == 0 && (!chat || t.chat.add_special_tokens());
  std::cerr << "tokenizer: " << t.description << "\n";
  if (chat) std::cerr << "chat template: " << t.chat_description << "\n";
  if (vm.count("show-text")) std::cout << text << "\n";
  if (vm.count("lines")) {
    print_lines(*t.tokenizer, text, add_special);
    return 0;
  }
  if (vm.count("bench")) {
    const int reps = vm["bench"].as<int>();
    if (reps < 1 || reps > 1000) throw std::invalid_argument("--bench: from 1 to 1000");
    bench(
        [&] {
          return t.tokenizer->encode(chat ? render_chat(*chat_input, t.chat) : text, add_special);
        },
        text.size(), reps);
    return 0;
  }
  const std::vector<int32_t> ids = t.tokenizer->encode(text, add_special);
  print(*t.tokenizer, ids, vm.count("ids") ? "ids" : vm.count("pieces") ? "pieces" : "table");
  if (!vm.count("ids") && !vm.count("pieces")) std::cerr << ids.size() << " tokens\n";
  return 0;
}

}  // namespace infergate
