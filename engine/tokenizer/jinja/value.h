// A runtime value, with @huggingface/jinja's types: undefined, none, booleans, integers and
// floats (both JS doubles: integers are those known to be integral), strings, arrays and tuples,
// objects (insertion-ordered, as JS Maps), keyword arguments, namespaces and functions.
// Strings, arrays and objects are immutable and shared; a namespace is the one mutable value and
// lives in the render's arena (render_state.h), so values never own a cycle.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace infergate::jinja {

namespace ast {
struct Macro;
struct CallStatement;
}  // namespace ast

struct ArrayData;
struct ObjectData;
struct Namespace;
struct Callable;

class Value {
 public:
  enum class Kind : uint8_t {
    kUndefined,
    kNull,
    kBoolean,
    kInteger,
    kFloat,
    kString,
    kArray,
    kTuple,
    kObject,
    kKeywordArguments,  // the keyword arguments of a call, passed as its last argument
    kNamespace,
    kFunction,
  };

  Value() = default;  // undefined
  static Value null();
  static Value boolean(bool value);
  static Value integer(double value);
  static Value floating(double value);
  // An integer when integral (as Number.isInteger decides for values from the context).
  static Value number(double value);
  static Value string(std::shared_ptr<const std::string> text);
  static Value array(std::shared_ptr<const ArrayData> data, Kind kind = Kind::kArray);
  static Value object(std::shared_ptr<const ObjectData> data, Kind kind = Kind::kObject);
  static Value space(Namespace* ns);
  static Value function(std::shared_ptr<const Callable> callable);

  Kind kind() const { return kind_; }
  bool is(Kind kind) const { return kind_ == kind; }
  bool is_undefined() const { return kind_ == Kind::kUndefined; }
  bool is_null() const { return kind_ == Kind::kNull; }
  bool is_number() const { return kind_ == Kind::kInteger || kind_ == Kind::kFloat; }
  bool is_string() const { return kind_ == Kind::kString; }
  // instanceof ArrayValue: tuples too.
  bool is_array() const { return kind_ == Kind::kArray || kind_ == Kind::kTuple; }
  // instanceof ObjectValue: keyword arguments too.
  bool is_object() const { return kind_ == Kind::kObject || kind_ == Kind::kKeywordArguments; }
  // What attribute access and selectattr read keys of: objects and namespaces.
  bool is_attribute_container() const { return is_object() || kind_ == Kind::kNamespace; }
  bool is_function() const { return kind_ == Kind::kFunction; }

  bool boolean_value() const { return boolean_; }
  double number_value() const { return number_; }
  const std::string& str() const { return *static_cast<const std::string*>(data_.get()); }
  std::shared_ptr<const std::string> shared_str() const;
  const std::vector<Value>& items() const;
  // The entries of an object, keyword arguments or namespace.
  const struct Mapping& mapping() const;
  Namespace* space() const { return namespace_; }
  const Callable& callable() const { return *static_cast<const Callable*>(data_.get()); }
  // The identity of an array, object, namespace or function (JS compares those by reference).
  const void* identity() const;
  // Nesting of containers: 0 for scalars.
  int depth() const;

 private:
  Kind kind_ = Kind::kUndefined;
  bool boolean_ = false;
  union {
    double number_ = 0;
    Namespace* namespace_;
  };
  std::shared_ptr<const void> data_;
};

// String-keyed, insertion-ordered, as a JS Map: setting a key again keeps its place.
struct Mapping {
  const Value* find(std::string_view key) const;
  void set(std::string key, Value value);
  void erase(std::string_view key);
  size_t size() const { return entries.size(); }
  bool empty() const { return entries.empty(); }

  std::vector<std::pair<std::string, Value>> entries;

 private:
  void reindex();
  std::unordered_map<std::string, size_t> index_;  // built once a scan would be slow
};

struct ArrayData {
  std::vector<Value> items;
  int depth = 1;
};

struct ObjectData {
  Mapping map;
  int depth = 1;
};

struct Namespace {
  Mapping map;
};

class RenderState;
class Scope;

// A built-in function: `self` is the value a method was read from (a string, an object).
using Builtin = Value (*)(RenderState& state, const Value& self, std::vector<Value>& args);

struct Callable {
  enum class Type : uint8_t { kBuiltin, kMacro, kCaller };
  Type type = Type::kBuiltin;
  std::string name;
  Builtin builtin = nullptr;
  Value self;
  const ast::Macro* macro = nullptr;
  const ast::CallStatement* call = nullptr;
  std::shared_ptr<const Scope> scope;  // a caller's defining scope
};

// The type names @huggingface/jinja's messages use: "IntegerValue", "ArrayValue", ...
const char* type_name(Value::Kind kind);
inline const char* type_name(const Value& value) { return type_name(value.kind()); }

// __bool__: Python's truthiness, as @huggingface/jinja defines it (a namespace is always true).
bool truthy(const Value& value);

}  // namespace infergate::jinja
