// JSON Schema validation of a JSON value: how the harness judges a server's structured output
// (the JSON text a model generated under response_format's schema, or a tool call's arguments),
// for any server (ours, vLLM, SGLang), independently of the grammar that constrained it.
//
// Keywords (drafts 7 and 2020-12): type, enum, const, properties, required,
// additionalProperties, patternProperties, propertyNames, minProperties, maxProperties,
// dependencies, dependentRequired, dependentSchemas, items (a schema, or draft 7's tuple array
// with additionalItems), prefixItems, minItems, maxItems, uniqueItems, contains, minContains,
// maxContains, minLength, maxLength, pattern, minimum, maximum, exclusiveMinimum,
// exclusiveMaximum, multipleOf, allOf, anyOf, oneOf, not, if / then / else, and $ref to JSON
// pointers inside the same document ("#", "#/$defs/NAME", "#/properties/foo/items", ...);
// boolean schemas too. Equality (const, enum, uniqueItems) is JSON's: 1 and 1.0 are equal.
// Lengths count Unicode code points. Patterns are ECMAScript (std::wregex over code points),
// matched anywhere in the string, on strings of at most 2048 bytes: std::regex recurses once per
// character, so a longer string is reported as a problem rather than risking the stack.
// With "$schema" naming draft 7 or older, $ref replaces its sibling keywords (draft 7);
// otherwise they apply beside it (2019-09 on).
// Annotations are ignored: title, description, default, examples, $schema, $id at the root,
// $comment, format, readOnly, writeOnly, deprecated, contentMediaType, contentEncoding, and
// OpenAI's strict and name. Every other keyword is refused rather than ignored, since ignoring
// it would pass values it forbids; so are remote $refs and an $id below the root that sets a new
// base URI (a plain-name "#name" is ignored).
// A member that is no keyword is allowed only as a container that some $ref points into.
//
// Limits: a schema of more than 10,000 JSON values or nesting deeper than 64 levels is refused;
// validation reports a problem where schemas nest deeper than 256 levels in one value (recursion
// through $ref) or after 10,000,000 steps, so it ends on every value; a schema that reaches
// itself without descending into the value (endless recursion) is refused.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace infergate {

// A schema that cannot be used: malformed, or a keyword this validator does not implement.
// The message names the JSON path inside the schema (e.g. "schema.properties.age.minimum").
class JsonSchemaError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

struct CompiledJsonSchema;

// Immutable once built: copies share the compiled schema, and problem() may run on many threads.
class JsonSchemaValidator {
 public:
  // Checks the whole schema now (every subschema, every $ref resolvable, every pattern
  // compiled): throws JsonSchemaError.
  explicit JsonSchemaValidator(nlohmann::json schema);

  // "" when `value` is valid; otherwise the first problem found, naming the value's path
  // (e.g. "value.tags[2]: 7 is not of type string", "value: missing required property 'city'").
  std::string problem(const nlohmann::json& value) const;
  bool valid(const nlohmann::json& value) const { return problem(value).empty(); }

 private:
  std::shared_ptr<const CompiledJsonSchema> compiled_;
};

}  // namespace infergate
