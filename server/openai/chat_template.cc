#include "server/openai/chat_template.h"

namespace infergate {

std::string render_chatml(const std::vector<ChatMessage>& messages) {
  std::string text;
  for (const ChatMessage& m : messages) {
    text += "<|im_start|>" + m.role + "\n" + m.content + "<|im_end|>\n";
  }
  return text + "<|im_start|>assistant\n";
}

}  // namespace infergate
