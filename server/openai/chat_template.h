// The text a chat conversation becomes before tokenization. infergate does not run the Jinja
// templates some GGUF files carry (tokenizer.chat_template); every model gets ChatML, the
// template of Qwen and many fine-tunes, which is plain text and needs no special tokens:
//   <|im_start|>ROLE\nCONTENT<|im_end|>\n ... <|im_start|>assistant\n
#pragma once

#include <string>
#include <vector>

namespace infergate {

struct ChatMessage {
  std::string role;  // system | user | assistant | developer | tool
  std::string content;
};

// The conversation in ChatML, ending with the opened assistant turn the model completes.
std::string render_chatml(const std::vector<ChatMessage>& messages);

}  // namespace infergate
