#include "engine/tokenizer/jinja/render_state.h"

#include <algorithm>
#include <utility>

#include "engine/tokenizer/jinja/eval_error.h"

namespace infergate::jinja {
namespace {

// A namespace costs as much as copying this many elements: its allocation outlives its use.
constexpr int64_t kNamespaceSteps = 16;

}  // namespace

void RenderState::charge(int64_t steps) {
  steps_ += steps;
  if (steps_ > limits_.max_steps) {
    throw EvalError("the render took more than " + std::to_string(limits_.max_steps) +
                    " evaluation steps (Limits::max_steps)");
  }
}

void RenderState::check_string(size_t bytes) const {
  if (bytes > limits_.max_output_bytes) {
    throw EvalError("a string of " + std::to_string(bytes) + " bytes would pass " +
                    std::to_string(limits_.max_output_bytes) + " (Limits::max_output_bytes)");
  }
}

void RenderState::check_collection(size_t count) const {
  if (count > limits_.max_collection) {
    throw EvalError("a list of " + std::to_string(count) + " elements would pass " +
                    std::to_string(limits_.max_collection) + " (Limits::max_collection)");
  }
}

void RenderState::check_depth(int depth) const {
  if (depth > limits_.max_depth) {
    throw EvalError("the template nests deeper than " + std::to_string(limits_.max_depth) +
                    " levels (Limits::max_depth)");
  }
}

Value RenderState::make_string(std::string text) {
  check_string(text.size());
  charge_bytes(text.size());
  return Value::string(std::make_shared<const std::string>(std::move(text)));
}

Value RenderState::make_array(std::vector<Value> items, Value::Kind kind) {
  check_collection(items.size());
  charge(static_cast<int64_t>(items.size()));
  auto data = std::make_shared<ArrayData>();
  for (const Value& item : items) data->depth = std::max(data->depth, item.depth() + 1);
  check_depth(data->depth);
  data->items = std::move(items);
  return Value::array(std::move(data), kind);
}

Value RenderState::make_object(Mapping map, Value::Kind kind) {
  check_collection(map.size());
  charge(static_cast<int64_t>(map.size()));
  auto data = std::make_shared<ObjectData>();
  for (const auto& entry : map.entries)
    data->depth = std::max(data->depth, entry.second.depth() + 1);
  check_depth(data->depth);
  data->map = std::move(map);
  return Value::object(std::move(data), kind);
}

Value RenderState::make_namespace(Mapping map) {
  charge(kNamespaceSteps + static_cast<int64_t>(map.size()));
  namespaces_.push_back(Namespace{std::move(map)});
  return Value::space(&namespaces_.back());
}

Value RenderState::make_builtin(std::string name, Builtin builtin, Value self) {
  auto callable = std::make_shared<Callable>();
  callable->name = std::move(name);
  callable->builtin = builtin;
  callable->self = std::move(self);
  check_depth(1 + callable->self.depth());
  return Value::function(std::move(callable));
}

}  // namespace infergate::jinja
