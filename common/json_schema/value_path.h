// Where a value is inside the value judged: a chain of steps on the stack, from the root down,
// rendered as text ("value.tags[2]") only when a problem is written out.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace infergate::json_schema {

struct ValuePath {
  enum class Step { kRoot, kMember, kIndex, kName };

  const ValuePath* parent = nullptr;
  Step step = Step::kRoot;
  std::string_view key;
  std::size_t index = 0;

  ValuePath member(std::string_view name) const { return {this, Step::kMember, name, 0}; }
  ValuePath item(std::size_t i) const { return {this, Step::kIndex, {}, i}; }
  // A member's name, judged as a value by propertyNames.
  ValuePath name_of(std::string_view name) const { return {this, Step::kName, name, 0}; }

  // "value", "value.tags[2]", "value.odd (the property name)".
  std::string text() const;
};

}  // namespace infergate::json_schema
