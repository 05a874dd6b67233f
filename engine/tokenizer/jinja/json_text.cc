#include "engine/tokenizer/jinja/json_text.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/js_number.h"
#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {
namespace {

constexpr char kHex[] = "0123456789abcdef";

void append_unit_escape(std::string& out, uint32_t unit) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

class JsonWriter {
 public:
  JsonWriter(RenderState& state, const JsonOptions& options) : state_(state), options_(options) {
    const bool indented = options.indent != 0 && !std::isnan(options.indent);
    if (indented) {
      if (options.indent < 0 || !std::isfinite(options.indent)) {
        throw EvalError("Invalid count value: " + js_number_to_string(options.indent));
      }
      state.check_string(static_cast<size_t>(options.indent));
      indent_.assign(static_cast<size_t>(options.indent), ' ');
    }
    if (options.separators) {
      item_separator_ = options.separators->first;
      key_separator_ = options.separators->second;
    } else {
      item_separator_ = indented ? "," : ", ";
      key_separator_ = ": ";
    }
  }

  std::string write(const Value& value) {
    write_value(value, 0);
    return std::move(out_);
  }

 private:
  void write_value(const Value& value, int depth) {
    state_.charge(1);
    // Namespaces may hold themselves; nothing else nests past the limit.
    state_.check_depth(depth + 1);
    switch (value.kind()) {
      case Value::Kind::kNull:
        out_ += "null";
        break;
      case Value::Kind::kUndefined:
        out_ += options_.undefined_as_null ? "null" : "undefined";
        break;
      case Value::Kind::kInteger:
      case Value::Kind::kFloat:
        out_ += std::isfinite(value.number_value()) ? js_number_to_string(value.number_value())
                                                    : "null";
        break;
      case Value::Kind::kBoolean:
        out_ += value.boolean_value() ? "true" : "false";
        break;
      case Value::Kind::kString:
        state_.charge_bytes(value.str().size());
        append_json_string(out_, value.str(), options_.ensure_ascii);
        break;
      case Value::Kind::kArray:
        write_array(value, depth);
        break;
      case Value::Kind::kObject:
      case Value::Kind::kNamespace:
        write_object(value, depth);
        break;
      default:
        throw EvalError(std::string("Cannot convert to JSON: ") + type_name(value));
    }
    state_.check_string(out_.size());
  }

  // "\n" and the indent `depth` times; checked before it is built.
  std::string padding(int depth) const {
    state_.check_string(indent_.size() * static_cast<size_t>(depth) + 1);
    std::string pad = "\n";
    for (int i = 0; i < depth; ++i) pad += indent_;
    return pad;
  }

  void write_array(const Value& value, int depth) {
    const std::vector<Value>& items = value.items();
    const bool indented = !indent_.empty() && !items.empty();
    const std::string base = indented ? padding(depth) : "";
    const std::string children = indented ? base + indent_ : "";
    out_ += '[';
    for (size_t i = 0; i < items.size(); ++i) {
      if (i > 0) out_ += item_separator_;
      out_ += children;
      write_value(items[i], depth + 1);
    }
    out_ += base;
    out_ += ']';
  }

  void write_object(const Value& value, int depth) {
    std::vector<const std::pair<std::string, Value>*> entries;
    for (const auto& entry : value.mapping().entries) entries.push_back(&entry);
    if (options_.sort_keys) {
      state_.charge(static_cast<int64_t>(entries.size()));
      std::stable_sort(entries.begin(), entries.end(), [](const auto* a, const auto* b) {
        return js_compare(a->first, b->first) < 0;
      });
    }
    const bool indented = !indent_.empty() && !entries.empty();
    const std::string base = indented ? padding(depth) : "";
    const std::string children = indented ? base + indent_ : "";
    out_ += '{';
    for (size_t i = 0; i < entries.size(); ++i) {
      if (i > 0) out_ += item_separator_;
      out_ += children;
      append_json_string(out_, entries[i]->first, options_.ensure_ascii);
      out_ += key_separator_;
      write_value(entries[i]->second, depth + 1);
    }
    out_ += base;
    out_ += '}';
  }

  RenderState& state_;
  const JsonOptions& options_;
  std::string indent_;
  std::string item_separator_;
  std::string key_separator_;
  std::string out_;
};

}  // namespace

std::string to_json(RenderState& state, const Value& value, const JsonOptions& options) {
  return JsonWriter(state, options).write(value);
}

void append_json_string(std::string& out, std::string_view text, bool ensure_ascii) {
  out += '"';
  for (size_t pos = 0; pos < text.size();) {
    const auto byte = static_cast<unsigned char>(text[pos]);
    if (byte >= 0x80 || (ensure_ascii && byte == 0x7F)) {
      const CodePoint c = decode_utf8(text, pos);
      if (!ensure_ascii) {
        out.append(text, pos, c.size);
      } else if (c.cp >= 0x10000) {
        append_unit_escape(out, 0xD800 + ((c.cp - 0x10000) >> 10));
        append_unit_escape(out, 0xDC00 + ((c.cp - 0x10000) & 0x3FF));
      } else {
        append_unit_escape(out, c.cp);
      }
      pos += c.size;
      continue;
    }
    switch (byte) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (byte < 0x20) {
          append_unit_escape(out, byte);
        } else {
          out += static_cast<char>(byte);
        }
    }
    ++pos;
  }
  out += '"';
}

}  // namespace infergate::jinja
