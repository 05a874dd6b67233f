// The public API: the schema compiled once (schema_compiler.h) into nodes (compiled_schema.h),
// shared by every copy; problem() walks a value beside them (value_checker.h).
#include "common/json_schema/json_schema_validator.h"

#include "common/json_schema/compiled_schema.h"
#include "common/json_schema/schema_compiler.h"
#include "common/json_schema/value_checker.h"

namespace infergate {

JsonSchemaValidator::JsonSchemaValidator(nlohmann::json schema)
    : compiled_(std::make_shared<const CompiledJsonSchema>(
          json_schema::SchemaCompiler(schema).compile())) {}

std::string JsonSchemaValidator::problem(const nlohmann::json& value) const {
  return json_schema::first_problem(*compiled_, value);
}

}  // namespace infergate
