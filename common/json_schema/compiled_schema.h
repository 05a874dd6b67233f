// The compiled form of a JSON Schema: one SchemaNode per schema location, its keywords already
// checked and parsed, its subschemas named by their index in CompiledJsonSchema::nodes ($ref
// targets are shared through their JSON pointer). schema_compiler.h builds it; value_checker.h
// walks a value beside it.
#pragma once

#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/json_schema/schema_pattern.h"

namespace infergate {
namespace json_schema {

using Json = nlohmann::json;
using SchemaId = std::size_t;  // index into CompiledJsonSchema::nodes

enum TypeBit : unsigned {
  kNull = 1,
  kBoolean = 2,
  kObject = 4,
  kArray = 8,
  kNumber = 16,
  kString = 32,
  kInteger = 64,
};

inline constexpr std::pair<TypeBit, std::string_view> kTypeNames[] = {
    {kNull, "null"},     {kBoolean, "boolean"}, {kObject, "object"},   {kArray, "array"},
    {kNumber, "number"}, {kString, "string"},   {kInteger, "integer"},
};

struct SchemaNode {
  std::string path;            // where it is in the schema ("schema.properties.tags")
  std::optional<bool> always;  // a boolean schema
  std::optional<SchemaId> ref;
  unsigned types = 0;  // TypeBits; 0 when there is no "type"
  std::optional<Json> constant;
  std::optional<std::vector<Json>> allowed_values;  // enum
  // Objects.
  std::map<std::string, SchemaId, std::less<>> properties;
  std::vector<std::pair<Pattern, SchemaId>> pattern_properties;
  std::optional<SchemaId> additional_properties;
  std::vector<std::string> required;
  std::optional<SchemaId> property_names;
  std::optional<std::size_t> min_properties, max_properties;
  std::vector<std::pair<std::string, std::vector<std::string>>> dependent_required;
  std::vector<std::pair<std::string, SchemaId>> dependent_schemas;
  // Arrays: the tuple (prefixItems, or draft 7's items array), then the rest's schema.
  std::vector<SchemaId> prefix_items;
  std::optional<SchemaId> rest_items;
  std::optional<SchemaId> contains;
  std::size_t min_contains = 1;
  std::optional<std::size_t> max_contains;
  std::optional<std::size_t> min_items, max_items;
  bool unique_items = false;
  // Strings.
  std::optional<std::size_t> min_length, max_length;
  std::optional<Pattern> pattern;
  // Numbers.
  std::optional<Json> minimum, maximum, exclusive_minimum, exclusive_maximum, multiple_of;
  // Schemas applied to the value itself.
  std::vector<SchemaId> all_of, any_of, one_of;
  std::optional<SchemaId> negated, if_schema, then_schema, else_schema;
};

}  // namespace json_schema

// Declared in json_schema_validator.h, which JsonSchemaValidator holds.
struct CompiledJsonSchema {
  std::deque<json_schema::SchemaNode> nodes;  // nodes[0] is the root
  bool ref_replaces_siblings = false;         // draft 7 and older: $ref ignores its siblings
};

}  // namespace infergate
