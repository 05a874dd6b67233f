#include "engine/tokenizer/chat_template.h"

namespace infergate {

namespace {

std::string chatml(const nlohmann::ordered_json& messages, bool add_generation_prompt) {
  std::string text;
  for (const auto& m : messages) {
    const auto content = m.find("content");
    text += "<|im_start|>" + m.value("role", std::string()) + "\n" +
            (content != m.end() && content->is_string() ? content->get<std::string>() : "") +
            "<|im_end|>\n";
  }
  return add_generation_prompt ? text + "<|im_start|>assistant\n" : text;
}

}  // namespace

std::string render_chatml(const std::vector<ChatMessage>& messages) {
  return ChatTemplate().render(messages, true);
}

ChatTemplate::ChatTemplate(const std::string& source, const std::string& tool_use_source,
                           std::map<std::string, std::string> special_tokens,
                           const std::string& model)
    : special_tokens_(std::move(special_tokens)) {
  if (!source.empty()) template_ = std::make_shared<const jinja::Template>(source, model);
  if (!tool_use_source.empty()) {
    tool_use_ = std::make_shared<const jinja::Template>(tool_use_source, model + " (tool_use)");
  }
}

std::string ChatTemplate::description() const {
  return is_chatml() ? "ChatML (the model has none)" : "the model's own";
}

std::string ChatTemplate::render(const nlohmann::ordered_json& messages, bool add_generation_prompt,
                                 const nlohmann::ordered_json& tools) const {
  if (is_chatml()) return chatml(messages, add_generation_prompt);
  nlohmann::ordered_json context = {{"messages", messages},
                                    {"add_generation_prompt", add_generation_prompt},
                                    {"tools", tools},
                                    {"documents", nullptr}};
  for (const auto& [key, text] : special_tokens_) context[key] = text;
  const jinja::Template& chosen = !tools.is_null() && tool_use_ ? *tool_use_ : *template_;
  return chosen.render(context);
}

std::string ChatTemplate::render(const std::vector<ChatMessage>& messages,
                                 bool add_generation_prompt) const {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const ChatMessage& m : messages) list.push_back({{"role", m.role}, {"content", m.content}});
  return render(list, add_generation_prompt);
}

}  // namespace infergate
