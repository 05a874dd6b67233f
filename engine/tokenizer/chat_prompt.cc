#include "engine/tokenizer/chat_prompt.h"

namespace infergate {

std::vector<int32_t> chat_prompt_ids(const Tokenizer& tokenizer, bool add_bos,
                                     const ChatTemplate& chat,
                                     const std::vector<ChatMessage>& messages,
                                     bool add_generation_prompt) {
  const std::string text = chat.render(messages, add_generation_prompt);
  return tokenizer.encode(text, chat.add_special_tokens() && add_bos);
}

std::vector<int32_t> chat_prompt_ids(const Tokenizer& tokenizer, bool add_bos,
                                     const ChatTemplate& chat,
                                     const nlohmann::ordered_json& messages,
                                     bool add_generation_prompt,
                                     const nlohmann::ordered_json& tools) {
  const std::string text = chat.render(messages, add_generation_prompt, tools);
  return tokenizer.encode(text, chat.add_special_tokens() && add_bos);
}

}  // namespace infergate
