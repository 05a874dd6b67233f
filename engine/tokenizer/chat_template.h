// What a chat conversation becomes before tokenization, as transformers' apply_chat_template
// makes it: the model's own Jinja template (GGUF's tokenizer.chat_template, tokenizer_config.json's
// chat_template or chat_template.jinja) rendered with {messages, add_generation_prompt, tools,
// documents, bos_token, eos_token, ...} by the jinja/ interpreter. A model without a template
// gets ChatML, which callers say at start:
//   <|im_start|>ROLE\nCONTENT<|im_end|>\n ... <|im_start|>assistant\n
// and, given tools, the <tool_call> layout ChatML models are trained on (chat_template.cc).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/jinja/jinja_template.h"

namespace infergate {

// How a template writes an assistant's tool calls, so the server can read them back from the
// text a model generates (server/openai/tool_call_parser.h): kHermes is
//   <tool_call>\n{"name": "NAME", "arguments": {...}}\n</tool_call>
// (Qwen 2.5 / 3, Hermes, ChatML); kNone is a layout infergate does not read.
enum class ToolCallFormat { kNone, kHermes };

struct ChatMessage {
  std::string role;  // system | user | assistant | developer | tool
  std::string content;
};

// The conversation in ChatML, ending with the opened assistant turn the model completes.
std::string render_chatml(const std::vector<ChatMessage>& messages);

class ChatTemplate {
 public:
  // ChatML.
  ChatTemplate();
  // `source` ("" for ChatML) and `tool_use_source` ("" for none) parsed now: throws
  // jinja::TemplateError naming `model` for a syntax error. `special_tokens`: bos_token, eos_token,
  // ... texts.
  ChatTemplate(const std::string& source, const std::string& tool_use_source,
               std::map<std::string, std::string> special_tokens, const std::string& model);

  bool is_chatml() const { return chatml_; }
  // The layout of tool calls in the template (of its tool_use variant when it has one).
  ToolCallFormat tool_call_format() const { return tool_call_format_; }
  // "the model's own" or "ChatML (the model has none)", for the line commands print at start.
  std::string description() const;

  // `messages`: OpenAI-style message objects; `tools`: null or the request's tool list. Throws
  // jinja::TemplateError (a template's raise_exception, a limit).
  std::string render(const nlohmann::ordered_json& messages, bool add_generation_prompt,
                     const nlohmann::ordered_json& tools = nullptr) const;
  std::string render(const std::vector<ChatMessage>& messages, bool add_generation_prompt) const;

  // Whether the rendered text is encoded with the tokenizer's special tokens (BOS) added: not
  // for a model's template, which writes its own (as apply_chat_template tokenizes with
  // add_special_tokens=False); ChatML text is encoded as any prompt.
  bool add_special_tokens() const { return is_chatml(); }

 private:
  std::shared_ptr<const jinja::Template> template_;
  std::shared_ptr<const jinja::Template> tool_use_;
  std::map<std::string, std::string> special_tokens_;
  bool chatml_ = false;
  ToolCallFormat tool_call_format_ = ToolCallFormat::kNone;
};

}  // namespace infergate
