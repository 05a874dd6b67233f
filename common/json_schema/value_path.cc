// A value's path as text, in the same notation as schema paths.
#include "common/json_schema/value_path.h"

#include "common/json_schema/schema_messages.h"

namespace infergate::json_schema {

std::string ValuePath::text() const {
  switch (step) {
    case Step::kRoot:
      return "value";
    case Step::kMember:
      return member_path(parent->text(), key);
    case Step::kIndex:
      return index_path(parent->text(), index);
    case Step::kName:
      return member_path(parent->text(), key) + " (the property name)";
  }
  return "value";
}

}  // namespace infergate::json_schema
