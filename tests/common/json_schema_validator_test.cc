// JSON Schema validation: each keyword family on valid and invalid values, problems that name
// the value's path, the schemas refused (and why), recursion through $ref, and the bounds that
// keep validation finite.
#include "common/json_schema/json_schema_validator.h"

#include <catch2/catch.hpp>
#include <string>

namespace infergate {
namespace {

using Json = nlohmann::json;
using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;

std::string problem_of(const char* schema, const char* value) {
  return JsonSchemaValidator(Json::parse(schema)).problem(Json::parse(value));
}

bool is_valid(const char* schema, const char* value) {
  return JsonSchemaValidator(Json::parse(schema)).valid(Json::parse(value));
}

// What the constructor throws, or "" when it accepts the schema.
std::string refusal_of(const Json& schema) {
  try {
    JsonSchemaValidator validator(schema);
  } catch (const JsonSchemaError& error) {
    return error.what();
  }
  return "";
}

std::string refusal_of(const char* schema) { return refusal_of(Json::parse(schema)); }

TEST_CASE("json schema: type names one type or a list, and integer takes 1.0", "[json_schema]") {
  CHECK(is_valid(R"({"type": "string"})", R"("x")"));
  CHECK(problem_of(R"({"type": "string"})", "7") == "value: 7 is not of type string");
  CHECK(is_valid(R"({"type": "integer"})", "1.0"));
  CHECK(is_valid(R"({"type": "integer"})", "-3"));
  CHECK(problem_of(R"({"type": "integer"})", "1.5") == "value: 1.5 is not of type integer");
  CHECK(is_valid(R"({"type": "number"})", "1.5"));
  CHECK_FALSE(is_valid(R"({"type": "number"})", R"("1.5")"));
  CHECK(is_valid(R"({"type": ["string", "null"]})", "null"));
  CHECK(problem_of(R"({"type": ["string", "null", "boolean"]})", "{}") ==
        "value: {} is not of type null, boolean or string");
  CHECK_FALSE(is_valid(R"({"type": "boolean"})", "0"));
  CHECK(is_valid(R"({"type": "array"})", "[]"));
  CHECK(is_valid(R"({"type": "object"})", "{}"));
  CHECK(is_valid("{}", R"([1, "a", null])"));
}

TEST_CASE("json schema: enum and const use JSON equality (1 equals 1.0)", "[json_schema]") {
  CHECK(is_valid(R"({"enum": ["red", "green", 1]})", "1.0"));
  CHECK(problem_of(R"({"enum": ["red", "green"]})", R"("blue")") ==
        R"(value: "blue" is not one of the enum ["red","green"])");
  CHECK_FALSE(is_valid(R"({"enum": [0]})", "false"));
  CHECK(is_valid(R"({"const": {"a": [1, 2]}})", R"({"a": [1.0, 2]})"));
  CHECK(problem_of(R"({"const": 4})", "3") == "value: 3 is not the const 4");
  CHECK_FALSE(is_valid(R"({"const": null})", "0"));
  CHECK_FALSE(is_valid(R"({"const": [1]})", "[1, 1]"));
}

TEST_CASE("json schema: properties, required and additionalProperties", "[json_schema]") {
  const char* schema = R"({
    "type": "object",
    "properties": {"city": {"type": "string"}, "zip": {"type": "integer"}},
    "required": ["city"],
    "additionalProperties": false
  })";
  CHECK(is_valid(schema, R"({"city": "Oslo", "zip": 150})"));
  CHECK(problem_of(schema, R"({"zip": 150})") == "value: missing required property 'city'");
  CHECK(problem_of(schema, R"({"city": "Oslo", "zip": "150"})") ==
        R"(value.zip: "150" is not of type integer)");
  CHECK(problem_of(schema, R"({"city": "Oslo", "country": "NO"})") ==
        "value: property 'country' is not allowed (additionalProperties is false)");
  // additionalProperties as a schema judges only the members not named in properties.
  const char* extra_numbers =
      R"({"properties": {"a": {}}, "additionalProperties": {"type": "number"}})";
  CHECK(is_valid(extra_numbers, R"({"a": "x", "b": 2})"));
  CHECK(problem_of(extra_numbers, R"({"a": "x", "b": "y"})") ==
        R"(value.b: "y" is not of type number)");
  // Not an object: the object keywords do not apply.
  CHECK(is_valid(schema, R"("x")") == false);
  CHECK(is_valid(R"({"required": ["a"]})", "[1]"));
}

TEST_CASE("json schema: patternProperties and propertyNames", "[json_schema]") {
  const char* schema = R"({
    "patternProperties": {"^x-": {"type": "string"}, "[0-9]": {"type": "integer"}},
    "additionalProperties": false
  })";
  CHECK(is_valid(schema, R"({"x-a": "s", "b1": 2})"));
  CHECK(problem_of(schema, R"({"x-1": "s"})") == R"(value.x-1: "s" is not of type integer)");
  CHECK(problem_of(schema, R"({"other": 1})") ==
        "value: property 'other' is not allowed (additionalProperties is false)");
  const char* names = R"({"propertyNames": {"pattern": "^[a-z]+$", "maxLength": 5}})";
  CHECK(is_valid(names, R"({"abc": 1})"));
  CHECK(problem_of(names, R"({"Abc": 1})") ==
        R"(value.Abc (the property name): "Abc" does not match pattern '^[a-z]+$')");
  CHECK_FALSE(is_valid(names, R"({"abcdef": 1})"));
  CHECK(is_valid(R"({"propertyNames": false})", "{}"));
  CHECK_FALSE(is_valid(R"({"propertyNames": false})", R"({"a": 1})"));
}

TEST_CASE("json schema: minProperties, maxProperties and dependencies", "[json_schema]") {
  CHECK(problem_of(R"({"minProperties": 2})", R"({"a": 1})") ==
        "value: has 1 property, fewer than minProperties 2");
  CHECK(problem_of(R"({"maxProperties": 1})", R"({"a": 1, "b": 2})") ==
        "value: has 2 properties, more than maxProperties 1");
  const char* draft7 = R"({"dependencies": {"card": ["billing"], "name": {"required": ["id"]}}})";
  CHECK(is_valid(draft7, R"({"card": 1, "billing": 2})"));
  CHECK(problem_of(draft7, R"({"card": 1})") ==
        "value: property 'card' requires property 'billing'");
  CHECK(problem_of(draft7, R"({"name": "x"})") == "value: missing required property 'id'");
  CHECK(is_valid(draft7, R"({"billing": 2})"));
  const char* split =
      R"({"dependentRequired": {"a": ["b"]}, "dependentSchemas": {"b": {"maxProperties": 2}}})";
  CHECK_FALSE(is_valid(split, R"({"a": 1})"));
  CHECK(is_valid(split, R"({"a": 1, "b": 2})"));
  CHECK_FALSE(is_valid(split, R"({"a": 1, "b": 2, "c": 3})"));
}

TEST_CASE("json schema: items, prefixItems and draft 7's tuple with additionalItems",
          "[json_schema]") {
  const char* tags = R"({"properties": {"tags": {"type": "array", "items": {"type": "string"}}}})";
  CHECK(is_valid(tags, R"({"tags": ["a", "b"]})"));
  CHECK(problem_of(tags, R"({"tags": ["a", "b", 7]})") == "value.tags[2]: 7 is not of type string");
  const char* prefix =
      R"({"prefixItems": [{"type": "integer"}, {"type": "string"}], "items": false})";
  CHECK(is_valid(prefix, R"([1, "a"])"));
  CHECK(is_valid(prefix, "[1]"));
  CHECK(problem_of(prefix, R"([1, "a", null])") ==
        "value[2]: no value is allowed here (the schema is false)");
  CHECK_FALSE(is_valid(prefix, R"(["a"])"));
  const char* tuple = R"({"items": [{"type": "integer"}], "additionalItems": {"type": "string"}})";
  CHECK(is_valid(tuple, R"([1, "a", "b"])"));
  CHECK(problem_of(tuple, "[1, 2]") == "value[1]: 2 is not of type string");
  // Without an items array, additionalItems applies to nothing (draft 7).
  CHECK(is_valid(R"({"items": {}, "additionalItems": false})", "[1, 2]"));
  CHECK(is_valid(R"({"additionalItems": false})", "[1, 2]"));
}

TEST_CASE("json schema: minItems, maxItems and uniqueItems", "[json_schema]") {
  CHECK(problem_of(R"({"minItems": 2})", "[1]") == "value: has 1 item, fewer than minItems 2");
  CHECK(problem_of(R"({"maxItems": 1})", "[1, 2]") == "value: has 2 items, more than maxItems 1");
  CHECK(is_valid(R"({"minItems": 1.0})", "[1]"));
  CHECK(is_valid(R"({"uniqueItems": true})", R"([1, "1", [1], {"a": 1}, true])"));
  CHECK(problem_of(R"({"uniqueItems": true})", "[1, 2, 1.0]") ==
        "value: items [0] and [2] are equal (uniqueItems)");
  CHECK_FALSE(is_valid(R"({"uniqueItems": true})", R"([{"a": [1]}, {"a": [1.0]}])"));
  CHECK(is_valid(R"({"uniqueItems": false})", "[1, 1]"));
  CHECK(is_valid(R"({"uniqueItems": true})", "[0, false]"));
  // Long arrays: items are compared by hash first, not each with each.
  Json many = Json::array();
  for (int i = 0; i < 20'000; ++i) many.push_back(i);
  const JsonSchemaValidator unique(Json::parse(R"({"uniqueItems": true})"));
  CHECK(unique.valid(many));
  many.push_back(19'999.0);
  CHECK(unique.problem(many) == "value: items [19999] and [20000] are equal (uniqueItems)");
}

TEST_CASE("json schema: contains with minContains and maxContains", "[json_schema]") {
  const char* contains = R"({"contains": {"type": "integer"}})";
  CHECK(is_valid(contains, R"(["a", 2])"));
  CHECK(problem_of(contains, R"(["a"])") == "value: no item matches contains");
  CHECK_FALSE(is_valid(contains, "[]"));
  const char* counted = R"({"contains": {"const": 1}, "minContains": 2, "maxContains": 3})";
  CHECK(problem_of(counted, "[1, 2]") == "value: 1 item match contains, fewer than minContains 2");
  CHECK(is_valid(counted, "[1, 2, 1]"));
  CHECK(problem_of(counted, "[1, 1, 1, 1]") ==
        "value: 4 items match contains, more than maxContains 3");
  CHECK(is_valid(R"({"contains": {"const": 1}, "minContains": 0})", "[]"));
}

TEST_CASE("json schema: string lengths count code points, not bytes", "[json_schema]") {
  CHECK(is_valid(R"({"maxLength": 1})", R"("é")"));
  CHECK(is_valid(R"({"maxLength": 1})", R"("😀")"));
  CHECK(problem_of(R"({"maxLength": 2})", R"("héé")") ==
        R"(value: "héé" is longer than maxLength 2 (3 characters))");
  CHECK(problem_of(R"({"minLength": 2})", R"("é")") ==
        R"(value: "é" is shorter than minLength 2 (1 character))");
  CHECK(is_valid(R"({"minLength": 2})", "12"));  // not a string: minLength does not apply
}

TEST_CASE("json schema: pattern searches anywhere, in ECMAScript, over code points",
          "[json_schema]") {
  CHECK(is_valid(R"({"pattern": "[0-9]{3}"})", R"("ab123cd")"));
  CHECK(problem_of(R"({"pattern": "^[0-9]{5}$"})", R"("1234")") ==
        R"(value: "1234" does not match pattern '^[0-9]{5}$')");
  CHECK(is_valid(R"({"pattern": "^.$"})", R"("é")"));
  CHECK(is_valid(R"({"pattern": "^.$"})", R"("😀")"));
  CHECK_FALSE(is_valid(R"({"pattern": "^.$"})", R"("ab")"));
  CHECK(is_valid(R"({"pattern": "^[à-ÿ]+$"})", R"("éè")"));
  CHECK(is_valid(R"({"pattern": "^\\d+(?:\\.\\d+)?$"})", R"("3.14")"));
  CHECK(is_valid(R"({"pattern": "^a"})", "5"));  // not a string
}

TEST_CASE("json schema: a string too long for a pattern is a problem, not a crash",
          "[json_schema]") {
  const JsonSchemaValidator validator(Json::parse(R"({"pattern": "^(a|b)*$"})"));
  CHECK(validator.valid(Json(std::string(2048, 'a'))));
  CHECK_THAT(validator.problem(Json(std::string(100'000, 'a'))),
             Contains("is too long to match against pattern '^(a|b)*$'"));
  // Not taken for a failed branch: not would turn it into a pass.
  const JsonSchemaValidator negated(Json::parse(R"({"not": {"pattern": "x"}})"));
  CHECK_THAT(negated.problem(Json(std::string(5000, 'a'))), Contains("too long"));
}

TEST_CASE("json schema: numeric bounds", "[json_schema]") {
  CHECK(is_valid(R"({"minimum": 0, "maximum": 10})", "0"));
  CHECK(is_valid(R"({"minimum": 0, "maximum": 10})", "10.0"));
  CHECK(problem_of(R"({"properties": {"age": {"minimum": 0}}})", R"({"age": -1})") ==
        "value.age: -1 is less than minimum 0");
  CHECK(problem_of(R"({"maximum": 10})", "10.5") == "value: 10.5 is greater than maximum 10");
  CHECK(problem_of(R"({"exclusiveMinimum": 0})", "0") ==
        "value: 0 is not greater than exclusiveMinimum 0");
  CHECK(problem_of(R"({"exclusiveMaximum": 5})", "5.0") ==
        "value: 5.0 is not less than exclusiveMaximum 5");
  CHECK(is_valid(R"({"exclusiveMaximum": 5})", "4.999"));
  CHECK(is_valid(R"({"minimum": 0})", R"("-5")"));  // not a number
  // Beyond 2^53 integers still compare exactly.
  CHECK_FALSE(is_valid(R"({"maximum": 9007199254740992})", "9007199254740993"));
  CHECK(is_valid(R"({"maximum": 18446744073709551615})", "18446744073709551615"));
}

TEST_CASE("json schema: multipleOf tolerates floating point, not real remainders",
          "[json_schema]") {
  CHECK(is_valid(R"({"multipleOf": 0.1})", "0.3"));
  CHECK(is_valid(R"({"multipleOf": 0.01})", "19.99"));
  CHECK(is_valid(R"({"multipleOf": 0.0001})", "0.0075"));
  CHECK_FALSE(is_valid(R"({"multipleOf": 0.0001})", "0.00751"));
  CHECK(problem_of(R"({"multipleOf": 2})", "7") == "value: 7 is not a multiple of 2");
  CHECK(is_valid(R"({"multipleOf": 2})", "-8"));
  CHECK(is_valid(R"({"multipleOf": 2})", "8.0"));
  CHECK_FALSE(is_valid(R"({"multipleOf": 1})", "7.5"));
  CHECK_FALSE(is_valid(R"({"multipleOf": 1})", "10000000000.5"));
  CHECK_FALSE(is_valid(R"({"multipleOf": 0.123456789})", "1e308"));
  CHECK(is_valid(R"({"multipleOf": 3})", "18446744073709551615"));
}

TEST_CASE("json schema: allOf, anyOf, oneOf and not", "[json_schema]") {
  const char* all = R"({"allOf": [{"type": "integer"}, {"minimum": 3}]})";
  CHECK(is_valid(all, "4"));
  CHECK(problem_of(all, "2") == "value: 2 is less than minimum 3");
  const char* any = R"({"anyOf": [{"type": "string"}, {"type": "integer"}]})";
  CHECK(is_valid(any, "3"));
  CHECK(
      problem_of(any, "1.5") ==
      "value: matches none of the 2 schemas of anyOf; anyOf[0]: value: 1.5 is not of type string");
  const char* one = R"({"oneOf": [{"type": "integer"}, {"minimum": 2}]})";
  CHECK(is_valid(one, "1"));
  CHECK(is_valid(one, "2.5"));
  CHECK(problem_of(one, "3") == "value: matches both oneOf[0] and oneOf[1], not exactly one");
  CHECK(problem_of(R"({"oneOf": [{"type": "string"}, {"minimum": 1}, {"maximum": 9}]})", "5") ==
        "value: matches both oneOf[1] and oneOf[2], not exactly one");
  CHECK_THAT(problem_of(one, "1.5"), StartsWith("value: matches none of the 2 schemas of oneOf"));
  CHECK(is_valid(R"({"not": {"type": "null"}})", "0"));
  CHECK(problem_of(R"({"not": {"type": "null"}})", "null") ==
        "value: null matches the schema of not");
}

TEST_CASE("json schema: if, then and else", "[json_schema]") {
  const char* schema = R"({
    "if": {"properties": {"country": {"const": "US"}}},
    "then": {"properties": {"zip": {"pattern": "^[0-9]{5}$"}}},
    "else": {"properties": {"zip": {"type": "string"}}}
  })";
  CHECK(is_valid(schema, R"({"country": "US", "zip": "12345"})"));
  CHECK(problem_of(schema, R"({"country": "US", "zip": "A1"})") ==
        R"(value.zip: "A1" does not match pattern '^[0-9]{5}$')");
  CHECK(is_valid(schema, R"({"country": "NL", "zip": "A1"})"));
  CHECK(problem_of(schema, R"({"country": "NL", "zip": 7})") ==
        "value.zip: 7 is not of type string");
  CHECK(is_valid(R"({"if": false})", "1"));
  CHECK(is_valid(R"({"then": false})", "1"));  // then without if: nothing applies
}

TEST_CASE("json schema: boolean schemas", "[json_schema]") {
  CHECK(JsonSchemaValidator(Json(true)).valid(Json::parse(R"({"any": [1]})")));
  CHECK(JsonSchemaValidator(Json(false)).problem(Json(1)) ==
        "value: no value is allowed here (the schema is false)");
  CHECK(is_valid(R"({"properties": {"a": true, "b": false}})", R"({"a": 1})"));
  CHECK(problem_of(R"({"properties": {"a": true, "b": false}})", R"({"b": 1})") ==
        "value.b: no value is allowed here (the schema is false)");
  CHECK(is_valid(R"({"anyOf": [false, true]})", "1"));
  CHECK_FALSE(is_valid(R"({"allOf": [true, false]})", "1"));
}

TEST_CASE("json schema: $ref to definitions, $defs and JSON pointers", "[json_schema]") {
  const char* defs = R"({
    "$defs": {"name": {"type": "string", "minLength": 1}},
    "definitions": {"age": {"type": "integer", "minimum": 0}},
    "properties": {
      "name": {"$ref": "#/$defs/name"},
      "age": {"$ref": "#/definitions/age"},
      "ages": {"type": "array", "items": {"$ref": "#/definitions/age"}},
      "again": {"$ref": "#/properties/ages/items"},
      "a/b": {"type": "boolean"},
      "c~d": {"type": "null"},
      "e%f": {"type": "number"},
      "slashed": {"$ref": "#/properties/a~1b"},
      "tilded": {"$ref": "#/properties/c~0d"},
      "percent": {"$ref": "#/properties/e%25f"}
    }
  })";
  CHECK(is_valid(defs, R"({"name": "x", "age": 3, "ages": [1], "again": 2})"));
  CHECK(problem_of(defs, R"({"name": ""})") ==
        R"(value.name: "" is shorter than minLength 1 (0 characters))");
  CHECK(problem_of(defs, R"({"ages": [1, -2]})") == "value.ages[1]: -2 is less than minimum 0");
  CHECK(problem_of(defs, R"({"again": "x"})") == R"(value.again: "x" is not of type integer)");
  CHECK_FALSE(is_valid(defs, R"({"slashed": 1})"));
  CHECK_FALSE(is_valid(defs, R"({"tilded": 1})"));
  CHECK_FALSE(is_valid(defs, R"({"percent": "1"})"));
  CHECK(is_valid(defs, R"({"slashed": true, "tilded": null, "percent": 1})"));
  CHECK(is_valid(R"({"$ref": "#/definitions/t", "definitions": {"t": true}})", "1"));
  CHECK_FALSE(is_valid(R"({"$ref": "#/definitions/f", "definitions": {"f": false}})", "1"));
  // Into an array of schemas.
  CHECK_FALSE(is_valid(R"({"anyOf": [{"type": "null"}], "not": {"$ref": "#/anyOf/0"}})", "null"));
}

TEST_CASE("json schema: a tree schema recurses through $ref", "[json_schema]") {
  const char* tree = R"({
    "$defs": {"node": {
      "type": "object",
      "properties": {"value": {"type": "integer"},
                     "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}},
      "required": ["value"],
      "additionalProperties": false
    }},
    "$ref": "#/$defs/node"
  })";
  CHECK(is_valid(tree, R"({"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]})"));
  CHECK(problem_of(tree,
                   R"({"value": 1, "children": [{"value": 2, "children": [{"value": "3"}]}]})") ==
        R"(value.children[0].children[0].value: "3" is not of type integer)");
  CHECK(problem_of(tree, R"({"value": 1, "children": [{}]})") ==
        "value.children[0]: missing required property 'value'");
  // The root itself, through "#".
  const char* list = R"({"properties": {"next": {"$ref": "#"}, "n": {"type": "integer"}}})";
  CHECK(is_valid(list, R"({"n": 1, "next": {"n": 2, "next": {"n": 3}}})"));
  CHECK(problem_of(list, R"({"n": 1, "next": {"next": {"n": "x"}}})") ==
        R"(value.next.next.n: "x" is not of type integer)");
}

TEST_CASE("json schema: recursion deeper than 256 levels is a problem, endless recursion refused",
          "[json_schema]") {
  const JsonSchemaValidator list(
      Json::parse(R"({"type": "object", "properties": {"next": {"$ref": "#"}}})"));
  Json deep = Json::object();
  for (int i = 0; i < 300; ++i) deep = Json{{"next", deep}};
  CHECK_THAT(list.problem(deep), Contains("schemas nest deeper than 256 levels"));
  Json shallow = Json::object();
  for (int i = 0; i < 50; ++i) shallow = Json{{"next", shallow}};
  CHECK(list.valid(shallow));

  CHECK_THAT(refusal_of(R"({"$ref": "#"})"), Contains("endless recursion"));
  CHECK_THAT(refusal_of(R"({"anyOf": [{"type": "string"}, {"$ref": "#"}]})"),
             Contains("endless recursion"));
  CHECK_THAT(
      refusal_of(R"({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"not": {"$ref": "#/$defs/a"}}}})"),
      Contains("endless recursion"));
}

TEST_CASE("json schema: a schema too costly to evaluate stops with a problem", "[json_schema]") {
  // Each level applies the next one twice: 2^30 applications for a value that fails them all.
  Json schema = {{"$defs", Json::object()}, {"$ref", "#/$defs/d0"}};
  for (int level = 0; level < 30; ++level) {
    const std::string next = "#/$defs/d" + std::to_string(level + 1);
    schema["$defs"]["d" + std::to_string(level)] = {
        {"anyOf", {{{"$ref", next}}, {{"$ref", next}}}}};
  }
  schema["$defs"]["d30"] = {{"type", "string"}};
  const JsonSchemaValidator validator(schema);
  CHECK(validator.valid(Json("x")));
  CHECK_THAT(validator.problem(Json(1)), Contains("validation stopped after 10000000 steps"));
}

TEST_CASE("json schema: draft 7's $ref replaces its siblings, later drafts apply them beside it",
          "[json_schema]") {
  Json schema = Json::parse(R"({"$defs": {"list": {"type": "array"}},
                                "$ref": "#/$defs/list", "maxItems": 2})");
  CHECK_FALSE(JsonSchemaValidator(schema).valid(Json::parse("[1, 2, 3]")));
  schema["$schema"] = "https://json-schema.org/draft/2020-12/schema";
  CHECK_FALSE(JsonSchemaValidator(schema).valid(Json::parse("[1, 2, 3]")));
  schema["$schema"] = "http://json-schema.org/draft-07/schema#";
  CHECK(JsonSchemaValidator(schema).valid(Json::parse("[1, 2, 3]")));
  CHECK_FALSE(JsonSchemaValidator(schema).valid(Json::parse("{}")));
}

TEST_CASE("json schema: annotations and OpenAI's extras are ignored", "[json_schema]") {
  const char* schema = R"({
    "$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "https://example.com/s",
    "$comment": "c", "title": "t", "description": "d", "default": 1, "examples": [1],
    "strict": true, "name": "answer", "deprecated": false, "readOnly": true, "writeOnly": false,
    "type": "object",
    "properties": {"when": {"type": "string", "format": "date-time"},
                   "blob": {"type": "string", "contentEncoding": "base64",
                            "contentMediaType": "image/png"},
                   "tag": {"$id": "#tag", "type": "string"}}
  })";
  CHECK(refusal_of(schema).empty());
  CHECK(is_valid(schema, R"({"when": "not a date", "blob": "%%%"})"));  // format: annotation
  CHECK_FALSE(is_valid(schema, R"({"when": 1})"));
}

TEST_CASE("json schema: refusals name the schema path", "[json_schema]") {
  CHECK(refusal_of(R"({"properties": {"age": {"type": "integer", "minimm": 0}}})") ==
        "schema.properties.age.minimm: unsupported keyword 'minimm'");
  CHECK(refusal_of(R"({"unevaluatedProperties": false})") ==
        "schema.unevaluatedProperties: unsupported keyword 'unevaluatedProperties'");
  CHECK_THAT(refusal_of(R"({"$ref": "https://example.com/other.json#/a"})"),
             StartsWith("schema.$ref: unsupported $ref 'https://example.com/other.json#/a'"));
  CHECK_THAT(refusal_of(R"({"items": {"$ref": "other.json"}})"),
             StartsWith("schema.items.$ref: unsupported $ref"));
  CHECK_THAT(refusal_of(R"({"$ref": "#anchor"})"), Contains("plain-name fragments"));
  CHECK(refusal_of(R"({"properties": {"a": {"$ref": "#/$defs/missing"}}, "$defs": {}})") ==
        "schema.properties.a.$ref: $ref '#/$defs/missing' does not resolve: schema.$defs has no "
        "'missing'");
  CHECK_THAT(refusal_of(R"({"$ref": "#/required", "required": ["a"]})"), Contains("no schema"));
  CHECK_THAT(refusal_of(R"({"properties": {"id": {"pattern": "([a-z]"}}})"),
             StartsWith("schema.properties.id.pattern: invalid regular expression '([a-z]'"));
  CHECK_THAT(refusal_of(R"({"patternProperties": {"(": {}}})"),
             StartsWith("schema.patternProperties[\"(\"]: invalid regular expression"));
  CHECK_THAT(refusal_of(R"({"definitions": {"n": {"$id": "http://x/n", "type": "null"}}})"),
             StartsWith("schema.definitions.n.$id: unsupported keyword '$id' below the root"));
}

TEST_CASE("json schema: malformed keywords are refused", "[json_schema]") {
  CHECK_THAT(refusal_of(R"({"type": "text"})"), StartsWith("schema.type: unknown type"));
  CHECK_THAT(refusal_of(R"({"type": []})"), StartsWith("schema.type: must be"));
  CHECK_THAT(refusal_of(R"({"minLength": -1})"),
             StartsWith("schema.minLength: must be a non-negative integer"));
  CHECK_THAT(refusal_of(R"({"maxItems": 1.5})"), StartsWith("schema.maxItems: must be"));
  CHECK_THAT(refusal_of(R"({"minimum": "0"})"), StartsWith("schema.minimum: must be a number"));
  CHECK_THAT(refusal_of(R"({"exclusiveMinimum": true, "minimum": 0})"),
             Contains("draft 4's boolean form is unsupported"));
  CHECK_THAT(refusal_of(R"({"multipleOf": 0})"), StartsWith("schema.multipleOf: must be greater"));
  CHECK_THAT(refusal_of(R"({"required": "a"})"), StartsWith("schema.required: must be an array"));
  CHECK_THAT(refusal_of(R"({"anyOf": []})"), StartsWith("schema.anyOf: must be a non-empty array"));
  CHECK_THAT(refusal_of(R"({"allOf": [{}, 3]})"),
             StartsWith("schema.allOf[1]: a schema must be an object or a boolean"));
  CHECK_THAT(refusal_of(R"({"properties": {"a": "string"}})"),
             StartsWith("schema.properties.a: a schema must be"));
  CHECK_THAT(refusal_of(R"({"uniqueItems": 1})"),
             StartsWith("schema.uniqueItems: must be a boolean"));
  CHECK_THAT(refusal_of(R"({"prefixItems": [{}], "items": [{}]})"), StartsWith("schema.items:"));
  CHECK_THAT(refusal_of("7"), StartsWith("schema: a schema must be an object or a boolean"));
}

TEST_CASE("json schema: schemas too deep or too large are refused first", "[json_schema]") {
  Json deep = Json::object();
  for (int i = 0; i < 70; ++i) deep = Json{{"not", deep}};
  CHECK_THAT(refusal_of(deep), Contains("nests deeper than 64 levels"));
  Json nested = Json::object();
  for (int i = 0; i < 30; ++i) nested = Json{{"not", nested}};
  CHECK(refusal_of(nested).empty());
  Json wide = {{"enum", Json::array()}};
  for (int i = 0; i < 10'000; ++i) wide["enum"].push_back(i);
  CHECK(refusal_of(wide) == "schema: the schema has more than 10000 JSON values");
  // Size comes before anything else: an unknown keyword is not the reason given.
  wide["bogus"] = 1;
  CHECK_THAT(refusal_of(wide), Contains("more than 10000 JSON values"));
}

TEST_CASE("json schema: a member that is no keyword is allowed only as a $ref container",
          "[json_schema]") {
  const char* container = R"({"shapes": {"dot": {"type": "null"}},
                              "properties": {"p": {"$ref": "#/shapes/dot"}}})";
  CHECK(refusal_of(container).empty());
  CHECK_FALSE(is_valid(container, R"({"p": 1})"));
  CHECK(refusal_of(R"({"shapes": {"dot": {"type": "null"}}})") ==
        "schema.shapes: unsupported keyword 'shapes'");
  // The pointed-to schema is checked like any other.
  CHECK(refusal_of(R"({"x": {"a": {"typo": 1}}, "$ref": "#/x/a"})") ==
        "schema.x.a.typo: unsupported keyword 'typo'");
}

TEST_CASE("json schema: problems name the value's path", "[json_schema]") {
  const char* schema = R"({
    "type": "object",
    "properties": {
      "address": {"type": "object", "required": ["city"],
                  "properties": {"first line": {"type": "string"}}},
      "tags": {"type": "array", "items": {"type": "string"}}
    }
  })";
  CHECK(problem_of(schema, R"({"address": {}})") ==
        "value.address: missing required property 'city'");
  CHECK(problem_of(schema, R"({"tags": ["a", "b", 7]})") ==
        "value.tags[2]: 7 is not of type string");
  CHECK(problem_of(schema, R"({"address": {"city": "x", "first line": 1}})") ==
        R"(value.address["first line"]: 1 is not of type string)");
  // Long values are cut in the message.
  const std::string long_problem = JsonSchemaValidator(Json::parse(R"({"type": "integer"})"))
                                       .problem(Json(std::string(500, 'x')));
  CHECK(long_problem.size() < 120);
  CHECK_THAT(long_problem, Contains("... is not of type integer"));
}

TEST_CASE("json schema: copies share the compiled schema", "[json_schema]") {
  const JsonSchemaValidator original(Json::parse(R"({"type": "string"})"));
  const JsonSchemaValidator copy = original;
  CHECK(copy.valid(Json("x")));
  CHECK_FALSE(copy.valid(Json(1)));
}

}  // namespace
}  // namespace infergate
