// One compiler per keyword, found through a table by the keyword's name.
#include "common/json_schema/schema_keywords.h"

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "common/json_schema/json_compare.h"
#include "common/json_schema/json_pointer.h"
#include "common/json_schema/schema_messages.h"
#include "common/json_schema/schema_pattern.h"

namespace infergate::json_schema {
namespace {

using KeywordCompiler = void (*)(SchemaCompiler&, SchemaNode&, const Keyword&);

// --- Values of keywords ----------------------------------------------------------------------

std::size_t count_of(const Keyword& keyword) {
  if (!keyword.value.is_number() || !is_integral(keyword.value) ||
      keyword.value.get<long double>() < 0) {
    refuse(keyword.path, "must be a non-negative integer, not " + excerpt(keyword.value));
  }
  const auto count = keyword.value.get<long double>();
  const auto most = static_cast<long double>(std::numeric_limits<std::size_t>::max());
  return count >= most ? std::numeric_limits<std::size_t>::max() : static_cast<std::size_t>(count);
}

Json number_of(const Keyword& keyword) {
  if (!keyword.value.is_number()) {
    refuse(keyword.path, "must be a number, not " + excerpt(keyword.value));
  }
  return keyword.value;
}

std::vector<std::string> strings_of(const Keyword& keyword, const std::string& path) {
  const Json& list = keyword.value;
  if (!list.is_array() ||
      !std::all_of(list.begin(), list.end(), [](const Json& item) { return item.is_string(); })) {
    refuse(path, "must be an array of strings");
  }
  return list.get<std::vector<std::string>>();
}

unsigned type_bit(const Json& name, const std::string& path) {
  for (const auto& [bit, type_name] : kTypeNames) {
    if (name.is_string() && name.get<std::string>() == type_name) return bit;
  }
  refuse(path, "unknown type " + excerpt(name));
}

Json exclusive_bound(const Keyword& keyword) {
  if (keyword.value.is_boolean()) {
    refuse(keyword.path, "must be a number (draft 4's boolean form is unsupported)");
  }
  return number_of(keyword);
}

// A member of a keyword's object, as a keyword of its own.
Keyword member_of(const Keyword& keyword, const std::string& name, const Json& value) {
  return Keyword{value, keyword.pointer + "/" + pointer_token(name),
                 member_path(keyword.path, name)};
}

// --- Any value -------------------------------------------------------------------------------

// items, prefixItems and additionalItems: compile_items, once the schema's other keywords are in.
void compile_later(SchemaCompiler&, SchemaNode&, const Keyword&) {}

void compile_type(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  if (keyword.value.is_string()) {
    node.types = type_bit(keyword.value, keyword.path);
    return;
  }
  if (!keyword.value.is_array() || keyword.value.empty()) {
    refuse(keyword.path, "must be a type name or a non-empty array of type names");
  }
  for (std::size_t i = 0; i < keyword.value.size(); ++i) {
    node.types |= type_bit(keyword.value[i], index_path(keyword.path, i));
  }
}

void compile_enum(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_array()) refuse(keyword.path, "must be an array");
  node.allowed_values = keyword.value.get<std::vector<Json>>();
}

void compile_const(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.constant = keyword.value;
}

// --- Objects ---------------------------------------------------------------------------------

void compile_properties(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  for (auto& [name, id] : compiler.named_subschemas(keyword)) node.properties.emplace(name, id);
}

void compile_pattern_properties(SchemaCompiler& compiler, SchemaNode& node,
                                const Keyword& keyword) {
  for (const auto& [source, id] : compiler.named_subschemas(keyword)) {
    node.pattern_properties.emplace_back(compile_pattern(source, member_path(keyword.path, source)),
                                         id);
  }
}

void compile_additional_properties(SchemaCompiler& compiler, SchemaNode& node,
                                   const Keyword& keyword) {
  node.additional_properties = compiler.subschema(keyword);
}

void compile_required(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.required = strings_of(keyword, keyword.path);
}

void compile_property_names(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.property_names = compiler.subschema(keyword);
}

void compile_min_properties(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.min_properties = count_of(keyword);
}

void compile_max_properties(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.max_properties = count_of(keyword);
}

// Draft 7: each member is either the names the property requires or a schema.
void compile_dependencies(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_object()) refuse(keyword.path, "must be an object");
  for (const auto& [name, dependency] : keyword.value.items()) {
    const Keyword member = member_of(keyword, name, dependency);
    if (dependency.is_array()) {
      node.dependent_required.emplace_back(name, strings_of(member, member.path));
    } else {
      node.dependent_schemas.emplace_back(name, compiler.subschema(member));
    }
  }
}

void compile_dependent_required(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_object()) refuse(keyword.path, "must be an object");
  for (const auto& [name, names] : keyword.value.items()) {
    const Keyword member = member_of(keyword, name, names);
    node.dependent_required.emplace_back(name, strings_of(member, member.path));
  }
}

void compile_dependent_schemas(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  for (auto& named : compiler.named_subschemas(keyword)) node.dependent_schemas.push_back(named);
}

// --- Arrays (items, prefixItems and additionalItems: compile_items) ---------------------------

void compile_contains(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.contains = compiler.subschema(keyword);
}

void compile_min_contains(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.min_contains = count_of(keyword);
}

void compile_max_contains(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.max_contains = count_of(keyword);
}

void compile_min_items(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.min_items = count_of(keyword);
}

void compile_max_items(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.max_items = count_of(keyword);
}

void compile_unique_items(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_boolean()) refuse(keyword.path, "must be a boolean");
  node.unique_items = keyword.value.get<bool>();
}

// --- Strings ---------------------------------------------------------------------------------

void compile_min_length(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.min_length = count_of(keyword);
}

void compile_max_length(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.max_length = count_of(keyword);
}

void compile_pattern_keyword(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_string()) refuse(keyword.path, "must be a string");
  node.pattern = compile_pattern(keyword.value.get<std::string>(), keyword.path);
}

// --- Numbers ---------------------------------------------------------------------------------

void compile_minimum(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.minimum = number_of(keyword);
}

void compile_maximum(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.maximum = number_of(keyword);
}

void compile_exclusive_minimum(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.exclusive_minimum = exclusive_bound(keyword);
}

void compile_exclusive_maximum(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  node.exclusive_maximum = exclusive_bound(keyword);
}

void compile_multiple_of(SchemaCompiler&, SchemaNode& node, const Keyword& keyword) {
  const Json divisor = number_of(keyword);
  if (divisor.get<double>() <= 0) refuse(keyword.path, "must be greater than 0");
  node.multiple_of = divisor;
}

// --- Schemas applied to the value itself -----------------------------------------------------

void compile_all_of(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.all_of = compiler.subschemas(keyword);
}

void compile_any_of(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.any_of = compiler.subschemas(keyword);
}

void compile_one_of(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.one_of = compiler.subschemas(keyword);
}

void compile_not(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.negated = compiler.subschema(keyword);
}

void compile_if(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.if_schema = compiler.subschema(keyword);
}

void compile_then(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.then_schema = compiler.subschema(keyword);
}

void compile_else(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  node.else_schema = compiler.subschema(keyword);
}

// --- References ------------------------------------------------------------------------------

void compile_ref(SchemaCompiler& compiler, SchemaNode& node, const Keyword& keyword) {
  if (!keyword.value.is_string()) refuse(keyword.path, "must be a string");
  node.ref = compiler.resolve_ref(keyword.value.get<std::string>(), keyword.path);
}

// $id at the root names the document and changes nothing here; below it, a base URI would
// change what "#..." means inside it, so only draft 7's plain-name form ("#name") is ignored.
void compile_id(SchemaCompiler&, SchemaNode&, const Keyword& keyword) {
  if (!keyword.value.is_string()) refuse(keyword.path, "must be a string");
  const auto id = keyword.value.get<std::string>();
  if (keyword.pointer == "/$id" || id.starts_with("#")) return;
  refuse(keyword.path, "unsupported keyword '$id' below the root (a new base URI for $ref)");
}

// Containers of schemas for $ref: checked like any subschema, applied only by $ref.
void compile_definitions(SchemaCompiler& compiler, SchemaNode&, const Keyword& keyword) {
  compiler.named_subschemas(keyword);
}

// --- The table -------------------------------------------------------------------------------

constexpr std::pair<std::string_view, KeywordCompiler> kKeywordCompilers[] = {
    {"type", compile_type},
    {"enum", compile_enum},
    {"const", compile_const},
    {"properties", compile_properties},
    {"patternProperties", compile_pattern_properties},
    {"additionalProperties", compile_additional_properties},
    {"required", compile_required},
    {"propertyNames", compile_property_names},
    {"minProperties", compile_min_properties},
    {"maxProperties", compile_max_properties},
    {"dependencies", compile_dependencies},
    {"dependentRequired", compile_dependent_required},
    {"dependentSchemas", compile_dependent_schemas},
    {"items", compile_later},
    {"prefixItems", compile_later},
    {"additionalItems", compile_later},
    {"contains", compile_contains},
    {"minContains", compile_min_contains},
    {"maxContains", compile_max_contains},
    {"minItems", compile_min_items},
    {"maxItems", compile_max_items},
    {"uniqueItems", compile_unique_items},
    {"minLength", compile_min_length},
    {"maxLength", compile_max_length},
    {"pattern", compile_pattern_keyword},
    {"minimum", compile_minimum},
    {"maximum", compile_maximum},
    {"exclusiveMinimum", compile_exclusive_minimum},
    {"exclusiveMaximum", compile_exclusive_maximum},
    {"multipleOf", compile_multiple_of},
    {"allOf", compile_all_of},
    {"anyOf", compile_any_of},
    {"oneOf", compile_one_of},
    {"not", compile_not},
    {"if", compile_if},
    {"then", compile_then},
    {"else", compile_else},
    {"$ref", compile_ref},
    {"$id", compile_id},
    {"definitions", compile_definitions},
    {"$defs", compile_definitions},
};

// Keywords that say nothing about which values are valid.
constexpr std::string_view kAnnotations[] = {
    "title",  "description", "default",   "examples",   "$schema",          "$comment",
    "format", "readOnly",    "writeOnly", "deprecated", "contentMediaType", "contentEncoding",
    "strict", "name",
};

// Keywords of JSON Schema that this validator does not implement: refused wherever they are.
constexpr std::string_view kUnsupportedKeywords[] = {
    "unevaluatedProperties", "unevaluatedItems", "$anchor",          "$dynamicRef",
    "$dynamicAnchor",        "$recursiveRef",    "$recursiveAnchor", "$vocabulary",
    "contentSchema",         "extends",          "disallow",         "divisibleBy",
};

bool is_one_of(std::string_view name, const auto& names) {
  return std::find(std::begin(names), std::end(names), name) != std::end(names);
}

}  // namespace

bool compile_keyword(SchemaCompiler& compiler, SchemaNode& node, std::string_view name,
                     const Keyword& keyword) {
  const auto* const entry = std::find_if(std::begin(kKeywordCompilers), std::end(kKeywordCompilers),
                                         [&](const auto& named) { return named.first == name; });
  if (entry != std::end(kKeywordCompilers)) {
    entry->second(compiler, node, keyword);
    return true;
  }
  if (is_one_of(name, kAnnotations)) return true;
  if (is_one_of(name, kUnsupportedKeywords)) {
    refuse(keyword.path, "unsupported keyword " + single_quoted(name));
  }
  return false;
}

void compile_items(SchemaCompiler& compiler, SchemaNode& node, const Json& schema,
                   const std::string& pointer) {
  const auto keyword = [&](const std::string& name) -> std::optional<Keyword> {
    if (!schema.contains(name)) return std::nullopt;
    return Keyword{schema[name], pointer + "/" + name, member_path(node.path, name)};
  };
  const auto prefix = keyword("prefixItems");
  const auto items = keyword("items");
  const auto additional = keyword("additionalItems");
  if (prefix) node.prefix_items = compiler.subschemas(*prefix);
  if (items && items->value.is_array()) {
    if (prefix) refuse(items->path, "an array beside prefixItems (items is then one schema)");
    node.prefix_items = compiler.subschemas(*items, /*may_be_empty=*/true);
    if (additional) node.rest_items = compiler.subschema(*additional);
    return;
  }
  if (items) node.rest_items = compiler.subschema(*items);
  if (additional && prefix) {
    refuse(additional->path, "beside prefixItems (items is the schema of the items after it)");
  }
  // Draft 7: without an items array, additionalItems applies to nothing; still checked.
  if (additional) compiler.subschema(*additional);
}

}  // namespace infergate::json_schema
