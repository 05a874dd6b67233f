// JSON schemas turned into GBNF and run by the matcher: the texts each takes and refuses
// (objects with optional members, arrays with bounds, enums, numbers, strings with escapes,
// unions, recursive $defs), and the refusals naming the schema path.
#include <catch2/catch.hpp>

#include <string>

#include "engine/grammar/gbnf_parser.h"
#include "engine/grammar/grammar_matcher.h"
#include "engine/grammar/json_schema_grammar.h"

using namespace infergate;

namespace {

// A schema's grammar, parsed once.
class Schema {
 public:
  explicit Schema(std::string_view schema)
      : grammar_(std::make_shared<Grammar>(
            parse_gbnf(json_schema_to_gbnf(nlohmann::ordered_json::parse(schema))))) {}

  bool takes(std::string_view text) const {
    GrammarMatcher m(grammar_);
    return m.accept(text) && m.complete();
  }

 private:
  std::shared_ptr<Grammar> grammar_;
};

std::string gbnf(std::string_view schema) {
  return json_schema_to_gbnf(nlohmann::ordered_json::parse(schema));
}

}  // namespace

TEST_CASE("json schema: objects with required and optional members", "[grammar]") {
  const Schema s(R"({"type": "object", "properties": {
      "name": {"type": "string"},
      "age": {"type": "integer"},
      "address": {"type": "object", "properties": {
          "city": {"type": "string"}, "zip": {"type": "string"}}, "required": ["city"],
          "additionalProperties": false},
      "tags": {"type": "array", "items": {"type": "string"}}},
    "required": ["name", "address"]})");
  CHECK(s.takes(R"({"name":"Ann","address":{"city":"Oslo"}})"));
  CHECK(s.takes(R"({"name":"Ann","age":41,"address":{"city":"Oslo","zip":"0150"},"tags":[]})"));
  CHECK(
      s.takes("{\n  \"name\": \"Ann\",\n  \"address\": { \"city\": \"Oslo\" },\n  \"tags\": "
              "[\"a\", \"b\"]\n}"));
  CHECK(s.takes(R"({"name":"Ann","age":-3,"address":{"city":"Oslo"}})"));
  CHECK_FALSE(s.takes(R"({"name":"Ann"})"));                                  // missing required
  CHECK_FALSE(s.takes(R"({"address":{"city":"Oslo"}})"));                     // missing required
  CHECK_FALSE(s.takes(R"({"name":"Ann","address":{"city":"Oslo","x":1}})"));  // extra property
  CHECK_FALSE(s.takes(R"({"name":"Ann","address":{"city":"Oslo"},"more":1})"));
  CHECK_FALSE(s.takes(R"({"name":"Ann","age":"41","address":{"city":"Oslo"}})"));  // wrong type
  CHECK_FALSE(s.takes(R"({"name":"Ann","address":{"city":"Oslo"},})"));            // trailing comma
  CHECK_FALSE(s.takes(R"({"name":"Ann",,"address":{"city":"Oslo"}})"));            // double comma
  CHECK_FALSE(s.takes(R"({"address":{"city":"Oslo"},"name":"Ann"})"));             // out of order
  CHECK_FALSE(s.takes(R"({"name":"Ann","address":{"city":"Oslo"}} )"));  // text after the value
  CHECK_FALSE(s.takes(R"({"name":"Ann","address":{"city":"Oslo"}})"
                      "\n"));
}

TEST_CASE("json schema: all-optional members put commas only between members", "[grammar]") {
  const Schema s(R"({"type": "object", "properties": {
      "a": {"type": "boolean"}, "b": {"type": "null"}, "c": {"type": "number"}}})");
  for (const char* ok :
       {"{}", "{ }", R"({"a":true})", R"({"b":null})", R"({"c":1.5})", R"({"a":false,"c":2})",
        R"({"b":null,"c":0})", R"({"a":true,"b":null})", R"({"a":true,"b":null,"c":-1e-7})"}) {
    CHECK(s.takes(ok));
  }
  for (const char* bad : {R"({,"b":null})", R"({"a":true,})", R"({"a":true "b":null})",
                          R"({"a":true,,"c":1})", R"({"c":1,"a":true})", R"({"a":1})", "[]"}) {
    CHECK_FALSE(s.takes(bad));
  }
}

TEST_CASE("json schema: properties keep the order of an ordered_json schema", "[grammar]") {
  const char* schema = R"({"type": "object", "properties": {"z": {"type": "integer"},
      "a": {"type": "integer"}}, "required": ["z", "a"]})";
  CHECK(Schema(schema).takes(R"({"z":1,"a":2})"));
  CHECK_FALSE(Schema(schema).takes(R"({"a":2,"z":1})"));
  // nlohmann::json sorts keys: its schemas come out in alphabetical order.
  const auto sorted =
      std::make_shared<Grammar>(parse_gbnf(json_schema_to_gbnf(nlohmann::json::parse(schema))));
  GrammarMatcher m(sorted);
  CHECK((m.accept(R"({"a":2,"z":1})") && m.complete()));
}

TEST_CASE("json schema: objects without properties", "[grammar]") {
  const Schema any(R"({"type": "object"})");
  CHECK(any.takes(R"({})"));
  CHECK(any.takes(R"({"x":[1,{"y":null}],"x":"dup keys are JSON too"})"));
  CHECK_FALSE(any.takes("[]"));
  const Schema none(R"({"type": "object", "additionalProperties": false})");
  CHECK(none.takes("{}"));
  CHECK_FALSE(none.takes(R"({"a":1})"));
  const Schema map(R"({"type": "object", "additionalProperties": {"type": "integer"}})");
  CHECK(map.takes(R"({"a":1, "b":-2})"));
  CHECK(map.takes("{}"));
  CHECK_FALSE(map.takes(R"({"a":"1"})"));
}

TEST_CASE("json schema: arrays with item counts and prefixItems", "[grammar]") {
  const Schema s(
      R"({"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 4})");
  CHECK(s.takes("[1,2]"));
  CHECK(s.takes("[ 1 , 2 , 3 , 4 ]"));
  CHECK_FALSE(s.takes("[1]"));
  CHECK_FALSE(s.takes("[1,2,3,4,5]"));  // too many items
  CHECK_FALSE(s.takes("[1,2,]"));       // trailing comma
  CHECK_FALSE(s.takes("[1,\"2\"]"));
  const Schema empty(R"({"type": "array", "items": {"type": "string"}})");
  CHECK(empty.takes("[]"));
  CHECK(empty.takes(R"(["a","b","c"])"));
  CHECK_FALSE(empty.takes("[,]"));
  const Schema tuple(R"({"type": "array", "prefixItems": [{"type": "string"}, {"type": "integer"}],
      "items": false, "minItems": 1})");
  CHECK(tuple.takes(R"(["a"])"));
  CHECK(tuple.takes(R"(["a",1])"));
  CHECK_FALSE(tuple.takes("[]"));
  CHECK_FALSE(tuple.takes(R"(["a",1,2])"));
  CHECK_FALSE(tuple.takes(R"([1,"a"])"));
  const Schema rest(R"({"type": "array", "prefixItems": [{"type": "null"}],
      "items": {"type": "boolean"}, "maxItems": 3})");
  CHECK(rest.takes("[null,true,false]"));
  CHECK_FALSE(rest.takes("[null,true,false,true]"));
  CHECK_FALSE(rest.takes("[true]"));
}

TEST_CASE("json schema: enums and const of mixed values", "[grammar]") {
  const Schema s(R"({"enum": ["red", 42, -1.5, null, true, {"k": [1, "x"]}, [], "a\"b"]})");
  for (const char* ok :
       {R"("red")", "42", "-1.5", "null", "true", R"({"k":[1,"x"]})", "[]", R"("a\"b")"}) {
    CHECK(s.takes(ok));
  }
  for (const char* bad : {R"("blue")", "false", "4", "\"red", R"("a"b")", R"("RED")"}) {
    CHECK_FALSE(s.takes(bad));
  }
  const Schema typed(R"({"type": "string", "enum": ["x", 1, "y"]})");
  CHECK(typed.takes(R"("y")"));
  CHECK_FALSE(typed.takes("1"));
  const Schema one(R"({"const": "only"})");
  CHECK(one.takes(R"("only")"));
  CHECK_FALSE(one.takes(R"("other")"));
}

TEST_CASE("json schema: numbers and integers", "[grammar]") {
  const Schema number(R"({"type": "number"})");
  for (const char* ok : {"0", "-0", "12", "-3.25", "1e5", "6.02E+23", "1.5e-10", "-0.0001"}) {
    CHECK(number.takes(ok));
  }
  for (const char* bad : {"01", "+1", ".5", "1.", "1e", "--1", "0x10", "\"1\"", "NaN",
                          "1234567890123456"}) {  // 16 digits: past the run limit
    CHECK_FALSE(number.takes(bad));
  }
  const Schema integer(R"({"type": "integer"})");
  CHECK(integer.takes("-42"));
  CHECK(integer.takes("999999999999999"));
  CHECK_FALSE(integer.takes("1.0"));
  CHECK_FALSE(integer.takes("1e3"));
  CHECK_FALSE(integer.takes("00"));
  const Schema age(R"({"type": "integer", "minimum": 0, "maximum": 150})");
  for (int v : {0, 7, 10, 99, 100, 149, 150}) CHECK(age.takes(std::to_string(v)));
  for (const char* bad : {"151", "200", "-1", "1000", "007"}) CHECK_FALSE(age.takes(bad));
  const Schema range(R"({"type": "integer", "exclusiveMinimum": -21, "exclusiveMaximum": 1234.5})");
  for (int v = -30; v <= 1300; ++v) {
    INFO(v);
    CHECK(range.takes(std::to_string(v)) == (v > -21 && v <= 1234));
  }
  const Schema negative(R"({"type": "integer", "maximum": -5})");
  CHECK(negative.takes("-5"));
  CHECK(negative.takes("-123456789"));
  CHECK_FALSE(negative.takes("-4"));
  CHECK_FALSE(negative.takes("0"));
}

TEST_CASE("json schema: strings with escapes and lengths", "[grammar]") {
  const Schema s(R"({"type": "string"})");
  for (const char* ok : {R"("")", R"("plain")", R"("say \"hi\"")", R"("back\\slash")",
                         R"("\/\b\f\n\r\t")", R"("caf\u00e9 \uD83D\uDE00")", "\"café 😀 日本\""}) {
    CHECK(s.takes(ok));
  }
  for (const char* bad : {R"("a"b")", R"("\x41")", R"("\u12")", R"("\a")", "\"tab\there\"",
                          "\"new\nline\"", R"("unterminated)", "'single'"}) {
    CHECK_FALSE(s.takes(bad));
  }
  const Schema len(R"({"type": "string", "minLength": 2, "maxLength": 3})");
  CHECK(len.takes(R"("ab")"));
  CHECK(len.takes(R"("\u00e9\n")"));  // two characters, written with escapes
  CHECK(len.takes("\"日本語\""));     // three characters, nine bytes
  CHECK_FALSE(len.takes(R"("a")"));
  CHECK_FALSE(len.takes(R"("abcd")"));
}

TEST_CASE("json schema: nullable types and anyOf", "[grammar]") {
  const Schema nullable(R"({"type": ["string", "null"]})");
  CHECK(nullable.takes("null"));
  CHECK(nullable.takes(R"("x")"));
  CHECK_FALSE(nullable.takes("1"));
  const Schema any_of(R"({"anyOf": [{"type": "integer"}, {"type": "array", "items": {"type":
      "boolean"}, "maxItems": 1}, {"type": "object", "properties": {"k": {"type": "null"}},
      "required": ["k"]}]})");
  CHECK(any_of.takes("7"));
  CHECK(any_of.takes("[true]"));
  CHECK(any_of.takes(R"({"k":null})"));
  CHECK_FALSE(any_of.takes("[true,false]"));
  CHECK_FALSE(any_of.takes("1.5"));
  CHECK_FALSE(any_of.takes("{}"));
  const Schema one_of(R"({"oneOf": [{"type": "string"}, {"type": "number"}],
      "description": "annotations are ignored"})");
  CHECK(one_of.takes("1"));
  CHECK(one_of.takes(R"("1")"));
  CHECK_FALSE(one_of.takes("true"));
  const Schema anything(R"({})");
  for (const char* ok : {"1", "null", R"({"a":[{}]})", "[\"x\",2]"}) CHECK(anything.takes(ok));
}

TEST_CASE("json schema: recursive $defs become recursive rules", "[grammar]") {
  const Schema tree(R"({"$ref": "#/$defs/node", "$defs": {"node": {"type": "object",
      "properties": {"value": {"type": "integer"}, "children": {"type": "array",
      "items": {"$ref": "#/$defs/node"}}}, "required": ["value"],
      "additionalProperties": false}}})");
  CHECK(tree.takes(R"({"value":1})"));
  CHECK(tree.takes(R"({"value":1,"children":[]})"));
  CHECK(tree.takes(R"({"value":1,"children":[{"value":2},{"value":3,"children":[{"value":4}]}]})"));
  CHECK_FALSE(tree.takes(R"({"value":1,"children":[{}]})"));
  CHECK_FALSE(tree.takes(R"({"value":1,"children":[{"value":2,"x":0}]})"));
  const Schema list(R"({"type": "object", "properties": {"head": {"$ref": "#/definitions/cell"}},
      "required": ["head"], "definitions": {"cell": {"anyOf": [{"type": "null"},
      {"type": "array", "prefixItems": [{"type": "integer"}, {"$ref": "#/definitions/cell"}],
       "items": false, "minItems": 2}]}}})");
  CHECK(list.takes(R"({"head":[1,[2,[3,null]]]})"));
  CHECK(list.takes(R"({"head":null})"));
  CHECK_FALSE(list.takes(R"({"head":[1,[2]]})"));
  // One rule per $defs entry, however many $refs name it.
  const std::string g = gbnf(R"({"type": "array", "prefixItems": [{"$ref": "#/$defs/x"},
      {"$ref": "#/$defs/x"}], "$defs": {"x": {"type": "string", "maxLength": 2}}})");
  size_t defined = 0;
  for (size_t at = g.find("\ndef-x-"); at != std::string::npos; at = g.find("\ndef-x-", at + 1)) {
    ++defined;
  }
  CHECK(defined == 1);
}

TEST_CASE("json schema: whitespace between tokens is bounded", "[grammar]") {
  const Schema s(R"({"type": "array", "items": {"type": "integer"}})");
  CHECK(s.takes("[\n\t  1,\n   2\n]"));
  CHECK(s.takes("[    1    ]"));
  CHECK_FALSE(s.takes("[     1]"));  // five characters
  CHECK_FALSE(s.takes(" [1]"));      // none before the value
  CHECK_FALSE(s.takes("[\r\n1]"));
}

TEST_CASE("json schema: unsupported or invalid schemas name their path", "[grammar]") {
  using Catch::Contains;
  CHECK_THROWS_AS(gbnf(R"({"type": "strin"})"), GrammarError);
  CHECK_THROWS_WITH(gbnf(R"({"type": "strin"})"), Contains("schema.type"));
  CHECK_THROWS_WITH(gbnf(R"({"properties": {"age": {"type": "number", "minimum": 0}}})"),
                    Contains("schema.properties.age.minimum"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "integer", "exclusiveMinimum": true})"),
                    Contains("schema.exclusiveMinimum"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "integer", "minimum": 5, "maximum": 4})"),
                    Contains("schema: no integer"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "string", "pattern": "^a"})"), Contains("schema.pattern"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "object", "properties": {"d": {"type": "string",
      "format": "date"}}})"),
                    Contains("schema.properties.d.format"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "array", "uniqueItems": true})"),
                    Contains("schema.uniqueItems: unsupported keyword"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "array", "maxItems": 1001})"),
                    Contains("schema.maxItems: is above 1000"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "array", "minItems": 3, "maxItems": 2})"),
                    Contains("schema.minItems"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "string", "maxLength": 5000})"), Contains("schema.maxLength"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "string", "minLength": -1})"), Contains("schema.minLength"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "object", "properties": {"a": {}}, "required": ["b"]})"),
                    Contains("schema.required"));
  CHECK_THROWS_WITH(gbnf(R"({"items": {"anyOf": [{"type": "null"}, {"$ref": "#/x"}]}})"),
                    Contains("schema.items.anyOf[1].$ref"));
  CHECK_THROWS_WITH(gbnf(R"({"$ref": "#/$defs/missing"})"), Contains("schema.$ref"));
  CHECK_THROWS_WITH(gbnf(R"({"$ref": "https://example.com/s.json"})"), Contains("schema.$ref"));
  CHECK_THROWS_WITH(gbnf(R"({"$ref": "#/$defs/a", "type": "object", "$defs": {"a": {}}})"),
                    Contains("schema.type: 'type' beside '$ref'"));
  CHECK_THROWS_WITH(gbnf(R"({"allOf": [{"type": "string"}, {"maxLength": 3}]})"),
                    Contains("schema.allOf"));
  CHECK_THROWS_WITH(gbnf(R"({"anyOf": []})"), Contains("schema.anyOf"));
  CHECK_THROWS_WITH(gbnf(R"({"type": "string", "enum": [1, 2]})"), Contains("schema.type"));
  CHECK_THROWS_WITH(gbnf(R"({"enum": ["a"], "const": "b"})"), Contains("schema.const"));
  CHECK_THROWS_WITH(gbnf(R"({"properties": {"x": false}})"), Contains("schema.properties.x"));
  CHECK_THROWS_WITH(gbnf(R"({"items": [{"type": "string"}]})"), Contains("schema.items"));
  CHECK_THROWS_WITH(gbnf("[1]"), Contains("schema: a schema must be"));
  // $refs that come back before any text would recurse forever.
  CHECK_THROWS_WITH(gbnf(R"({"$ref": "#/$defs/a", "$defs": {"a": {"anyOf": [{"type": "null"},
      {"$ref": "#/$defs/b"}]}, "b": {"allOf": [{"$ref": "#/$defs/a"}]}}})"),
                    Contains("schema.$defs.a"));
}

TEST_CASE("json schema: size limits are refused naming the limit", "[grammar]") {
  using Catch::Contains;
  std::string deep = R"({"type": "string"})";
  for (int i = 0; i < 70; ++i) deep = R"({"type": "array", "items": )" + deep + "}";
  CHECK_THROWS_WITH(gbnf(deep), Contains("deeper than 64"));
  nlohmann::ordered_json big = {{"enum", nlohmann::ordered_json::array()}};
  for (int i = 0; i < 10001; ++i) big["enum"].push_back(i);
  CHECK_THROWS_WITH(json_schema_to_gbnf(big), Contains("more than 10000"));
  nlohmann::ordered_json wide = {{"type", "object"},
                                 {"properties", nlohmann::ordered_json::object()}};
  for (int i = 0; i < 1001; ++i) wide["properties"]["p" + std::to_string(i)] = true;
  CHECK_THROWS_WITH(json_schema_to_gbnf(wide),
                    Contains("schema.properties: has 1001 properties; at most 1000"));
}

TEST_CASE("json schema: json_object_gbnf takes any object and nothing else", "[grammar]") {
  const auto g = std::make_shared<Grammar>(parse_gbnf(json_object_gbnf()));
  const auto takes = [&](std::string_view text) {
    GrammarMatcher m(g);
    return m.accept(text) && m.complete();
  };
  CHECK(takes("{}"));
  CHECK(takes(R"({"a": {"b": [1, 2.5e-3, "x\u00e9", null, true, {"c": {}}]}, "d": false})"));
  CHECK_FALSE(takes("[1, 2]"));
  CHECK_FALSE(takes(R"("text")"));
  CHECK_FALSE(takes(R"({"a": 1,})"));
  CHECK_FALSE(takes(R"({"a" 1})"));
}
