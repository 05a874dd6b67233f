#include "engine/tokenizer/chat_template.h"

namespace infergate {

namespace {

// ChatML, for models without a template of their own. Tools (and the tool calls and results of
// earlier turns) take the layout most ChatML models are trained on (Qwen 2.5 / 3, Hermes): the
// signatures in the system turn, calls as <tool_call> JSON, results as <tool_response> in a
// user turn. A conversation without tools renders as plain ChatML.
constexpr const char* kChatMl = R"({%- set offset = 0 %}
{%- if tools %}
    {{- '<|im_start|>system\n' }}
    {%- if messages[0].role == 'system' %}
        {{- messages[0].content + '\n\n' }}
        {%- set offset = 1 %}
    {%- endif %}
    {{- '# Tools\n\nThese functions may be called. Their signatures, one per line:\n<tools>' }}
    {%- for tool in tools %}
        {{- '\n' + (tool | tojson) }}
    {%- endfor %}
    {{- '\n</tools>\n\nTo call one, answer with its name and arguments as JSON between' }}
    {{- ' <tool_call></tool_call> tags:\n<tool_call>\n{"name": <name>, "arguments": <arguments' }}
    {{- ' object>}\n</tool_call><|im_end|>\n' }}
{%- endif %}
{%- for message in messages[offset:] %}
    {%- if message.role == 'tool' %}
        {%- if loop.first or loop.previtem.role != 'tool' %}
            {{- '<|im_start|>user' }}
        {%- endif %}
        {{- '\n<tool_response>\n' + message.content + '\n</tool_response>' }}
        {%- if loop.last or loop.nextitem.role != 'tool' %}
            {{- '<|im_end|>\n' }}
        {%- endif %}
    {%- else %}
        {{- '<|im_start|>' + message.role + '\n' + (message.content or '') }}
        {%- for call in message.tool_calls or [] %}
            {%- if loop.first and message.content or not loop.first %}
                {{- '\n' }}
            {%- endif %}
            {{- '<tool_call>\n{"name": "' + call.function.name + '", "arguments": ' }}
            {{- (call.function.arguments | tojson) + '}\n</tool_call>' }}
        {%- endfor %}
        {{- '<|im_end|>\n' }}
    {%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}
    {{- '<|im_start|>assistant\n' }}
{%- endif %})";

std::shared_ptr<const jinja::Template> chatml_template() {
  static const auto parsed = std::make_shared<const jinja::Template>(kChatMl, "ChatML");
  return parsed;
}

// The call layout a template writes for an assistant's tool_calls.
ToolCallFormat format_of(const std::string& source) {
  return source.find("<tool_call>") != std::string::npos ? ToolCallFormat::kHermes
                                                         : ToolCallFormat::kNone;
}

}  // namespace

std::string render_chatml(const std::vector<ChatMessage>& messages) {
  return ChatTemplate().render(messages, true);
}

ChatTemplate::ChatTemplate()
    : template_(chatml_template()), chatml_(true), tool_call_format_(ToolCallFormat::kHermes) {}

ChatTemplate::ChatTemplate(const std::string& source, const std::string& tool_use_source,
                           std::map<std::string, std::string> special_tokens,
                           const std::string& model)
    : special_tokens_(std::move(special_tokens)) {
  if (source.empty()) {
    template_ = chatml_template();
    chatml_ = true;
  } else {
    template_ = std::make_shared<const jinja::Template>(source, model);
  }
  if (!tool_use_source.empty()) {
    tool_use_ = std::make_shared<const jinja::Template>(tool_use_source, model + " (tool_use)");
  }
  tool_call_format_ = chatml_ ? ToolCallFormat::kHermes
                              : format_of(tool_use_source.empty() ? source : tool_use_source);
}

std::string ChatTemplate::description() const {
  return is_chatml() ? "ChatML (the model has none)" : "the model's own";
}

std::string ChatTemplate::render(const nlohmann::ordered_json& messages, bool add_generation_prompt,
                                 const nlohmann::ordered_json& tools) const {
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
