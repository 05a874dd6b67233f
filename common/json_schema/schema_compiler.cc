// The schema compiler's work list, $ref resolution and the checks on the whole schema: its size
// before compiling, unknown members and endless recursion after.
#include "common/json_schema/schema_compiler.h"

#include <algorithm>
#include <cstddef>
#include <string_view>

#include "common/json_schema/json_pointer.h"
#include "common/json_schema/schema_keywords.h"
#include "common/json_schema/schema_messages.h"

namespace infergate::json_schema {
namespace {

constexpr std::size_t kMaxSchemaValues = 10'000;
constexpr int kMaxSchemaDepth = 64;

// Before anything walks the schema recursively.
void check_size(const Json& value, const std::string& path, int depth, std::size_t& count) {
  if (depth > kMaxSchemaDepth) {
    refuse(path, "the schema nests deeper than " + std::to_string(kMaxSchemaDepth) + " levels");
  }
  if (++count > kMaxSchemaValues) {
    refuse("schema",
           "the schema has more than " + std::to_string(kMaxSchemaValues) + " JSON values");
  }
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) {
      check_size(member, member_path(path, key), depth + 1, count);
    }
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) {
      check_size(value[i], index_path(path, i), depth + 1, count);
    }
  }
}

// Draft 7 and older: $ref replaces the keywords beside it.
bool declares_draft_7_or_older(const Json& root) {
  if (!root.is_object() || !root.contains("$schema") || !root["$schema"].is_string()) {
    return false;
  }
  const auto dialect = root["$schema"].get<std::string>();
  constexpr std::string_view kOlderDrafts[] = {"draft-03", "draft-04", "draft-06", "draft-07"};
  return std::any_of(std::begin(kOlderDrafts), std::end(kOlderDrafts),
                     [&](auto draft) { return dialect.find(draft) != std::string::npos; });
}

// The schemas a node applies to the value itself rather than to its members or items.
std::vector<SchemaId> in_place(const SchemaNode& node) {
  std::vector<SchemaId> ids;
  for (const auto& applied :
       {node.ref, node.negated, node.if_schema, node.then_schema, node.else_schema}) {
    if (applied) ids.push_back(*applied);
  }
  for (const auto* list : {&node.all_of, &node.any_of, &node.one_of}) {
    ids.insert(ids.end(), list->begin(), list->end());
  }
  for (const auto& [name, id] : node.dependent_schemas) ids.push_back(id);
  return ids;
}

// A schema that reaches itself through in-place schemas would recurse forever on any value
// (and anyOf: [{"$ref": "#"}, {"$ref": "#"}] would double the work at each level): refused.
// Depth-first from each node, with an explicit path rather than recursion.
void check_no_endless_recursion(const std::deque<SchemaNode>& nodes) {
  enum class Mark { kNew, kOnPath, kDone };
  std::vector<Mark> marks(nodes.size(), Mark::kNew);
  std::vector<std::vector<SchemaId>> edges;
  for (const SchemaNode& node : nodes) edges.push_back(in_place(node));
  for (SchemaId start = 0; start < nodes.size(); ++start) {
    if (marks[start] != Mark::kNew) continue;
    std::vector<std::pair<SchemaId, std::size_t>> path = {{start, 0}};
    marks[start] = Mark::kOnPath;
    while (!path.empty()) {
      const SchemaId id = path.back().first;
      const std::size_t next = path.back().second++;
      if (next == edges[id].size()) {
        marks[id] = Mark::kDone;
        path.pop_back();
        continue;
      }
      const SchemaId child = edges[id][next];
      if (marks[child] == Mark::kOnPath) {
        refuse(nodes[child].path,
               "endless recursion: this schema applies itself to the same value again "
               "(through $ref, allOf, anyOf, oneOf, not, if/then/else or dependencies)");
      }
      if (marks[child] == Mark::kNew) {
        marks[child] = Mark::kOnPath;
        path.emplace_back(child, 0);
      }
    }
  }
}

}  // namespace

CompiledJsonSchema SchemaCompiler::compile() {
  std::size_t count = 0;
  check_size(root_, "schema", 1, count);
  schema_at(root_, "", "schema");
  while (!pending_.empty()) {
    PendingSchema next = std::move(pending_.front());
    pending_.pop_front();
    compile_node(nodes_[next.id], *next.schema, next.pointer);
  }
  check_unknown_members();
  check_no_endless_recursion(nodes_);
  return CompiledJsonSchema{std::move(nodes_), declares_draft_7_or_older(root_)};
}

SchemaId SchemaCompiler::subschema(const Keyword& keyword) {
  return schema_at(keyword.value, keyword.pointer, keyword.path);
}

std::vector<SchemaId> SchemaCompiler::subschemas(const Keyword& keyword, bool may_be_empty) {
  if (!keyword.value.is_array() || (keyword.value.empty() && !may_be_empty)) {
    refuse(keyword.path,
           may_be_empty ? "must be an array of schemas" : "must be a non-empty array of schemas");
  }
  std::vector<SchemaId> ids;
  for (std::size_t i = 0; i < keyword.value.size(); ++i) {
    ids.push_back(schema_at(keyword.value[i], keyword.pointer + "/" + std::to_string(i),
                            index_path(keyword.path, i)));
  }
  return ids;
}

std::vector<std::pair<std::string, SchemaId>> SchemaCompiler::named_subschemas(
    const Keyword& keyword) {
  if (!keyword.value.is_object()) refuse(keyword.path, "must be an object of schemas");
  std::vector<std::pair<std::string, SchemaId>> named;
  for (const auto& [name, schema] : keyword.value.items()) {
    named.emplace_back(name, schema_at(schema, keyword.pointer + "/" + pointer_token(name),
                                       member_path(keyword.path, name)));
  }
  return named;
}

SchemaId SchemaCompiler::resolve_ref(const std::string& ref, const std::string& path) {
  if (!ref.starts_with("#")) {
    refuse(path, "unsupported $ref " + single_quoted(ref) +
                     ": only references inside this schema ('#', '#/...') are supported");
  }
  const auto fragment = percent_decoded(std::string_view(ref).substr(1));
  if (!fragment) refuse(path, "$ref " + single_quoted(ref) + " has a malformed percent escape");
  if (!fragment->empty() && !fragment->starts_with("/")) {
    refuse(path,
           "unsupported $ref " + single_quoted(ref) + ": plain-name fragments are not supported");
  }
  const auto tokens = pointer_tokens(*fragment);
  if (!tokens) refuse(path, "$ref " + single_quoted(ref) + " has a '~' not followed by 0 or 1");
  const Json* target = &root_;
  std::string pointer;
  std::string target_path = "schema";
  for (const std::string& token : *tokens) {
    target = step_into(*target, token);
    if (target == nullptr) {
      refuse(path, "$ref " + single_quoted(ref) + " does not resolve: " + target_path + " has no " +
                       single_quoted(token));
    }
    pointer += "/" + pointer_token(token);
    target_path = member_path(target_path, token);
  }
  ref_targets_.push_back(pointer);
  if (!target->is_object() && !target->is_boolean()) {
    refuse(path,
           "$ref " + single_quoted(ref) + " points to " + target_path + ", which is no schema");
  }
  return schema_at(*target, pointer, target_path);
}

// The node of the schema at `pointer`, compiled later from the work list; one per location.
SchemaId SchemaCompiler::schema_at(const Json& value, const std::string& pointer,
                                   const std::string& path) {
  if (!value.is_object() && !value.is_boolean()) {
    refuse(path, "a schema must be an object or a boolean, not " + excerpt(value));
  }
  const auto [found, inserted] = ids_.try_emplace(pointer, nodes_.size());
  if (inserted) {
    nodes_.emplace_back().path = path;
    pending_.push_back({found->second, &value, pointer});
  }
  return found->second;
}

void SchemaCompiler::compile_node(SchemaNode& node, const Json& schema,
                                  const std::string& pointer) {
  if (schema.is_boolean()) {
    node.always = schema.get<bool>();
    return;
  }
  for (const auto& [name, value] : schema.items()) {
    const Keyword keyword{value, pointer + "/" + pointer_token(name), member_path(node.path, name)};
    if (!compile_keyword(*this, node, name, keyword)) {
      unknown_members_.push_back({keyword.pointer, keyword.path, name});
    }
  }
  compile_items(*this, node, schema, pointer);
}

void SchemaCompiler::check_unknown_members() const {
  for (const UnknownMember& unknown : unknown_members_) {
    const bool referenced =
        std::any_of(ref_targets_.begin(), ref_targets_.end(), [&](const std::string& target) {
          return target == unknown.pointer || target.starts_with(unknown.pointer + "/");
        });
    if (!referenced) refuse(unknown.path, "unsupported keyword " + single_quoted(unknown.name));
  }
}

}  // namespace infergate::json_schema
