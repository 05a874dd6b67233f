// The schema compiler: a JSON Schema to CompiledJsonSchema's nodes, or JsonSchemaError. It
// checks the schema's size first, then compiles from a work list rather than by recursion, so
// long $ref chains cannot overflow the stack: one node per schema location, $ref targets shared
// through their JSON pointer (resolved inside this document only). After the last node it
// refuses members that are no keyword unless a $ref points into them, and schemas that would
// apply themselves to the same value endlessly. schema_keywords.h compiles each keyword.
#pragma once

#include <deque>
#include <nlohmann/json.hpp>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "common/json_schema/compiled_schema.h"

namespace infergate::json_schema {

// One keyword of a schema object being compiled.
struct Keyword {
  const Json& value;
  std::string pointer;  // JSON pointer from the root, escaped
  std::string path;     // for messages: "schema.properties.age"
};

// One use: compile() once.
class SchemaCompiler {
 public:
  explicit SchemaCompiler(const Json& root) : root_(root) {}

  // Throws JsonSchemaError.
  CompiledJsonSchema compile();

  // For the keyword compilers: the node of the subschema a keyword holds (compiled later from
  // the work list), of each schema in its array, or of each member of its object.
  SchemaId subschema(const Keyword& keyword);
  std::vector<SchemaId> subschemas(const Keyword& keyword, bool may_be_empty = false);
  std::vector<std::pair<std::string, SchemaId>> named_subschemas(const Keyword& keyword);

  // The node a $ref names: "#" and "#/json/pointer" (percent-decoded, then ~1 and ~0) inside
  // this document; `path` is the $ref's, for messages.
  SchemaId resolve_ref(const std::string& ref, const std::string& path);

 private:
  struct PendingSchema {
    SchemaId id;
    const Json* schema;
    std::string pointer;
  };

  // A member of a schema object that is no keyword: allowed only as a container that some $ref
  // points into ({"tilde~field": {...}, "$ref": "#/tilde~0field"}).
  struct UnknownMember {
    std::string pointer;
    std::string path;
    std::string name;
  };

  SchemaId schema_at(const Json& value, const std::string& pointer, const std::string& path);
  void compile_node(SchemaNode& node, const Json& schema, const std::string& pointer);
  void check_unknown_members() const;

  const Json& root_;
  std::deque<SchemaNode> nodes_;  // a deque: nodes keep their address while others are added
  std::deque<PendingSchema> pending_;
  std::unordered_map<std::string, SchemaId> ids_;  // by JSON pointer
  std::vector<std::string> ref_targets_;
  std::vector<UnknownMember> unknown_members_;
};

}  // namespace infergate::json_schema
