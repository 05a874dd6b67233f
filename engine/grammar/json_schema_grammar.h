// JSON Schema (the subset OpenAI's structured outputs and vLLM's guided_json take) as GBNF text
// for parse_gbnf, so a request's response_format becomes a grammar the sampler can enforce.
//
// Supported: type (one or a list), enum, const, properties / required / additionalProperties,
// items / prefixItems / minItems / maxItems, minLength / maxLength, minimum / maximum /
// exclusiveMinimum / exclusiveMaximum on integers, anyOf, oneOf (as anyOf: exclusivity is not
// enforced), allOf of one schema, $ref to #/$defs/NAME or #/definitions/NAME (recursion allowed).
// Annotations (title, description, examples, default, $schema, $id, $comment, strict, name,
// deprecated, readOnly, writeOnly) are ignored; every other keyword, pattern and format included,
// is refused rather than ignored, since ignoring it would let through values it forbids.
//
// The grammar takes a subset of the valid texts, chosen so a model cannot run on forever:
// - between tokens at most 4 whitespace characters (space, tab, newline; no \r; or JsonSpacing
//   below), and none
//   before or after the top-level value, so the text ends where the value does;
// - numbers have at most 15 digits in each run (integer part, fraction, exponent);
// - objects with properties hold only the listed ones, in the schema's order, whatever
//   additionalProperties says unless it is false (as OpenAI's strict mode does);
// - enum and const values are written as their compact JSON text (nlohmann's dump()) only;
// - bounds on counts (minItems, maxItems, minLength, maxLength) are at most 1000, the
//   grammar's repetition limit.
// A schema without `type` allows every type, each under the keywords that apply to it.
// The schema may nest at most 64 levels, hold at most 10000 JSON values and 1000 properties per
// object; parse_gbnf may still refuse a result over its own size limits.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace infergate {

// Whitespace between tokens: up to four characters (a model may lay JSON out as it was trained
// to), or at most one space (tool calls, whose layout the chat template fixes: a model with
// little training would otherwise spend its tokens on blanks).
enum class JsonSpacing { kUpToFour, kOneSpace };

// The GBNF (root rule "root") whose sentences are the JSON texts valid under `schema`, within
// the limits above. Throws GrammarError (engine/grammar/grammar.h) naming the JSON path (e.g.
// "schema.properties.age.minimum") of anything invalid or unsupported.
// nlohmann::json keeps object keys sorted, so its properties come out in alphabetical order;
// parse the schema as an ordered_json to keep the order it was written in.
std::string json_schema_to_gbnf(const nlohmann::ordered_json& schema,
                                JsonSpacing spacing = JsonSpacing::kUpToFour);
std::string json_schema_to_gbnf(const nlohmann::json& schema,
                                JsonSpacing spacing = JsonSpacing::kUpToFour);

// Any JSON object (OpenAI's response_format {"type": "json_object"}), same whitespace and
// digit limits.
std::string json_object_gbnf();

}  // namespace infergate
