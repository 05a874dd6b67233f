#include "engine/tokenizer/jinja/value.h"

#include <cmath>
#include <iterator>

namespace infergate::jinja {
namespace {

// Below this many entries a linear scan beats hashing.
constexpr size_t kIndexFrom = 12;

}  // namespace

Value Value::null() {
  Value v;
  v.kind_ = Kind::kNull;
  return v;
}

Value Value::boolean(bool value) {
  Value v;
  v.kind_ = Kind::kBoolean;
  v.boolean_ = value;
  return v;
}

Value Value::integer(double value) {
  Value v;
  v.kind_ = Kind::kInteger;
  v.number_ = value;
  return v;
}

Value Value::floating(double value) {
  Value v;
  v.kind_ = Kind::kFloat;
  v.number_ = value;
  return v;
}

Value Value::number(double value) {
  return std::isfinite(value) && value == std::trunc(value) ? integer(value) : floating(value);
}

Value Value::string(std::shared_ptr<const std::string> text) {
  Value v;
  v.kind_ = Kind::kString;
  v.data_ = std::move(text);
  return v;
}

Value Value::array(std::shared_ptr<const ArrayData> data, Kind kind) {
  Value v;
  v.kind_ = kind;
  v.data_ = std::move(data);
  return v;
}

Value Value::object(std::shared_ptr<const ObjectData> data, Kind kind) {
  Value v;
  v.kind_ = kind;
  v.data_ = std::move(data);
  return v;
}

Value Value::space(Namespace* ns) {
  Value v;
  v.kind_ = Kind::kNamespace;
  v.namespace_ = ns;
  return v;
}

Value Value::function(std::shared_ptr<const Callable> callable) {
  Value v;
  v.kind_ = Kind::kFunction;
  v.data_ = std::move(callable);
  return v;
}

std::shared_ptr<const std::string> Value::shared_str() const {
  return std::shared_ptr<const std::string>(data_, &str());
}

const std::vector<Value>& Value::items() const {
  return static_cast<const ArrayData*>(data_.get())->items;
}

const Mapping& Value::mapping() const {
  if (kind_ == Kind::kNamespace) return namespace_->map;
  return static_cast<const ObjectData*>(data_.get())->map;
}

const void* Value::identity() const {
  return kind_ == Kind::kNamespace ? static_cast<const void*>(namespace_) : data_.get();
}

int Value::depth() const {
  switch (kind_) {
    case Kind::kArray:
    case Kind::kTuple:
      return static_cast<const ArrayData*>(data_.get())->depth;
    case Kind::kObject:
    case Kind::kKeywordArguments:
      return static_cast<const ObjectData*>(data_.get())->depth;
    case Kind::kFunction:
      return 1 + callable().self.depth();
    default:
      return 0;
  }
}

const Value* Mapping::find(std::string_view key) const {
  if (!index_.empty()) {
    const auto it = index_.find(std::string(key));
    return it == index_.end() ? nullptr : &entries[it->second].second;
  }
  for (const auto& [name, value] : entries) {
    if (name == key) return &value;
  }
  return nullptr;
}

void Mapping::set(std::string key, Value value) {
  for (size_t i = 0; index_.empty() && i < entries.size(); ++i) {
    if (entries[i].first == key) {
      entries[i].second = std::move(value);
      return;
    }
  }
  if (!index_.empty()) {
    const auto it = index_.find(key);
    if (it != index_.end()) {
      entries[it->second].second = std::move(value);
      return;
    }
    index_.emplace(key, entries.size());
  }
  entries.emplace_back(std::move(key), std::move(value));
  if (index_.empty() && entries.size() >= kIndexFrom) reindex();
}

void Mapping::erase(std::string_view key) {
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].first == key) {
      entries.erase(entries.begin() + static_cast<ptrdiff_t>(i));
      break;
    }
  }
  index_.clear();
  if (entries.size() >= kIndexFrom) reindex();
}

void Mapping::reindex() {
  index_.clear();
  for (size_t i = 0; i < entries.size(); ++i) index_.emplace(entries[i].first, i);
}

const char* type_name(Value::Kind kind) {
  static constexpr const char* kNames[] = {
      "UndefinedValue", "NullValue",    "BooleanValue", "IntegerValue", "FloatValue",
      "StringValue",    "ArrayValue",   "TupleValue",   "ObjectValue",  "KeywordArgumentsValue",
      "NamespaceValue", "FunctionValue"};
  static_assert(std::size(kNames) == static_cast<size_t>(Value::Kind::kFunction) + 1);
  return kNames[static_cast<int>(kind)];
}

bool truthy(const Value& value) {
  switch (value.kind()) {
    case Value::Kind::kUndefined:
    case Value::Kind::kNull:
      return false;
    case Value::Kind::kBoolean:
      return value.boolean_value();
    case Value::Kind::kInteger:
    case Value::Kind::kFloat:
      return value.number_value() != 0 && !std::isnan(value.number_value());
    case Value::Kind::kString:
      return !value.str().empty();
    case Value::Kind::kArray:
    case Value::Kind::kTuple:
      return !value.items().empty();
    case Value::Kind::kObject:
    case Value::Kind::kKeywordArguments:
      return !value.mapping().empty();
    case Value::Kind::kNamespace:
    case Value::Kind::kFunction:
      return true;
  }
  return false;
}

}  // namespace infergate::jinja
