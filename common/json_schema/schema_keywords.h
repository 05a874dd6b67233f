// The keywords of a schema object, each compiled into its SchemaNode: the table of the keywords
// this validator implements, the annotations it ignores and the keywords it refuses.
#pragma once

#include <string>
#include <string_view>

#include "common/json_schema/compiled_schema.h"
#include "common/json_schema/schema_compiler.h"

namespace infergate::json_schema {

// Compiles keyword `name` into `node`; throws JsonSchemaError for a malformed value or a keyword
// this validator does not implement. False for a member that is no keyword at all (allowed
// only where a $ref points into it). items, prefixItems and additionalItems wait for
// compile_items.
bool compile_keyword(SchemaCompiler& compiler, SchemaNode& node, std::string_view name,
                     const Keyword& keyword);

// items, prefixItems and additionalItems together, after the schema's other keywords:
// prefixItems (or draft 7's items array) is the tuple; items (or additionalItems after an items
// array) the schema of the items after it.
void compile_items(SchemaCompiler& compiler, SchemaNode& node, const Json& schema,
                   const std::string& pointer);

}  // namespace infergate::json_schema
