// ValueChecker, one per problem() call: walks the value and the nodes together, depth first,
// a group of keywords per check (type, const, enum, numbers, strings, arrays, objects, then the
// schemas applied to the value itself), stopping at the first problem.
#include "common/json_schema/value_checker.h"

#include <algorithm>
#include <cstddef>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "common/json_schema/json_compare.h"
#include "common/json_schema/schema_messages.h"
#include "common/json_schema/schema_pattern.h"
#include "common/json_schema/value_path.h"

namespace infergate::json_schema {
namespace {

constexpr int kMaxValidationDepth = 256;
constexpr std::size_t kMaxValidationSteps = 10'000'000;

// Where no answer can be given (schemas nested too deep, a string too long for a pattern, too
// many steps): thrown past anyOf and not, which would otherwise take it for a failed branch.
struct Undecided {
  std::string problem;
};

// String lengths count Unicode code points.
std::size_t code_points(std::string_view text) {
  return std::count_if(text.begin(), text.end(),
                       [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; });
}

std::string type_names(unsigned types) {
  std::vector<std::string_view> names;
  for (const auto& [bit, name] : kTypeNames) {
    if (types & bit) names.push_back(name);
  }
  std::string text;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (i > 0) text += i + 1 == names.size() ? " or " : ", ";
    text += names[i];
  }
  return text;
}

bool has_type(const Json& value, unsigned types) {
  switch (value.type()) {
    case Json::value_t::null:
      return types & kNull;
    case Json::value_t::boolean:
      return types & kBoolean;
    case Json::value_t::object:
      return types & kObject;
    case Json::value_t::array:
      return types & kArray;
    case Json::value_t::string:
      return types & kString;
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned:
    case Json::value_t::number_float:
      return (types & kNumber) || ((types & kInteger) && is_integral(value));
    default:
      return false;
  }
}

// One problem() call: the step count is its own.
class ValueChecker {
 public:
  explicit ValueChecker(const CompiledJsonSchema& schema) : schema_(schema) {}

  std::string problem(const Json& value) {
    try {
      return check(0, value, ValuePath{}, 0);
    } catch (const Undecided& undecided) {
      return undecided.problem;
    }
  }

 private:
  using Check = std::string (ValueChecker::*)(const SchemaNode&, const Json&, const ValuePath&,
                                              int);

  // While a branch's problem would be thrown away (not, if, contains, the later branches of
  // anyOf and oneOf), problems are not written out: a union of many variants stays cheap.
  class Quietly {
   public:
    explicit Quietly(int& quiet) : quiet_(++quiet) {}
    ~Quietly() { --quiet_; }
    Quietly(const Quietly&) = delete;
    Quietly& operator=(const Quietly&) = delete;

   private:
    int& quiet_;
  };

  // "path: what" (`what` written only when it will be read); never empty.
  template <typename Describe>
  std::string problem_at(const ValuePath& path, Describe what) const {
    if (quiet_ > 0) return "-";
    return path.text() + ": " + what();
  }

  std::string check(SchemaId id, const Json& value, const ValuePath& path, int depth) {
    if (depth > kMaxValidationDepth) {
      throw Undecided{path.text() + ": schemas nest deeper than " +
                      std::to_string(kMaxValidationDepth) + " levels here (recursion)"};
    }
    spend(1, path);
    const SchemaNode& node = schema_.nodes[id];
    if (node.always) {
      if (*node.always) return "";
      return problem_at(path, [] { return "no value is allowed here (the schema is false)"; });
    }
    if (node.ref && schema_.ref_replaces_siblings) {
      return check(*node.ref, value, path, depth + 1);
    }
    static constexpr Check kChecks[] = {
        &ValueChecker::check_ref,    &ValueChecker::check_type,   &ValueChecker::check_const,
        &ValueChecker::check_enum,   &ValueChecker::check_number, &ValueChecker::check_string,
        &ValueChecker::check_array,  &ValueChecker::check_object, &ValueChecker::check_all_of,
        &ValueChecker::check_any_of, &ValueChecker::check_one_of, &ValueChecker::check_not,
        &ValueChecker::check_if,
    };
    for (const Check each : kChecks) {
      std::string problem = (this->*each)(node, value, path, depth);
      if (!problem.empty()) return problem;
    }
    return "";
  }

  void spend(std::size_t steps, const ValuePath& path) {
    steps_ += steps;
    if (steps_ > kMaxValidationSteps) {
      throw Undecided{path.text() + ": validation stopped after " +
                      std::to_string(kMaxValidationSteps) + " steps"};
    }
  }

  bool matches(const Pattern& pattern, std::string_view text, const ValuePath& path) {
    if (text.size() > kMaxPatternSubjectBytes) {
      throw Undecided{path.text() + ": a string of " + std::to_string(text.size()) +
                      " bytes is too long to match against pattern " +
                      single_quoted(pattern.source) + " (at most " +
                      std::to_string(kMaxPatternSubjectBytes) + " bytes)"};
    }
    spend(1 + text.size() / 64, path);
    return pattern_matches(pattern, text);
  }

  // --- Any value.

  std::string check_ref(const SchemaNode& node, const Json& value, const ValuePath& path,
                        int depth) {
    return node.ref ? check(*node.ref, value, path, depth + 1) : "";
  }

  std::string check_type(const SchemaNode& node, const Json& value, const ValuePath& path, int) {
    if (node.types == 0 || has_type(value, node.types)) return "";
    return problem_at(path,
                      [&] { return excerpt(value) + " is not of type " + type_names(node.types); });
  }

  std::string check_const(const SchemaNode& node, const Json& value, const ValuePath& path, int) {
    if (!node.constant || value == *node.constant) return "";
    return problem_at(
        path, [&] { return excerpt(value) + " is not the const " + excerpt(*node.constant); });
  }

  std::string check_enum(const SchemaNode& node, const Json& value, const ValuePath& path, int) {
    if (!node.allowed_values) return "";
    const auto& allowed = *node.allowed_values;
    spend(allowed.size(), path);
    if (std::find(allowed.begin(), allowed.end(), value) != allowed.end()) return "";
    return problem_at(
        path, [&] { return excerpt(value) + " is not one of the enum " + excerpt(Json(allowed)); });
  }

  // --- Numbers.

  std::string check_number(const SchemaNode& node, const Json& value, const ValuePath& path, int) {
    if (!value.is_number()) return "";
    const auto beyond = [&](const char* relation, const Json& bound) {
      return problem_at(path, [&] { return excerpt(value) + relation + excerpt(bound); });
    };
    if (node.minimum && compare_numbers(value, *node.minimum) < 0) {
      return beyond(" is less than minimum ", *node.minimum);
    }
    if (node.maximum && compare_numbers(value, *node.maximum) > 0) {
      return beyond(" is greater than maximum ", *node.maximum);
    }
    if (node.exclusive_minimum && compare_numbers(value, *node.exclusive_minimum) <= 0) {
      return beyond(" is not greater than exclusiveMinimum ", *node.exclusive_minimum);
    }
    if (node.exclusive_maximum && compare_numbers(value, *node.exclusive_maximum) >= 0) {
      return beyond(" is not less than exclusiveMaximum ", *node.exclusive_maximum);
    }
    if (node.multiple_of && !is_multiple_of(value, *node.multiple_of)) {
      return beyond(" is not a multiple of ", *node.multiple_of);
    }
    return "";
  }

  // --- Strings.

  std::string check_string(const SchemaNode& node, const Json& value, const ValuePath& path, int) {
    if (!value.is_string()) return "";
    const auto& text = value.get_ref<const std::string&>();
    const std::size_t length = code_points(text);
    const auto beyond = [&](const char* relation, std::size_t bound) {
      return problem_at(path, [&] {
        return excerpt(value) + relation + std::to_string(bound) + " (" +
               plural(length, "character") + ")";
      });
    };
    if (node.min_length && length < *node.min_length) {
      return beyond(" is shorter than minLength ", *node.min_length);
    }
    if (node.max_length && length > *node.max_length) {
      return beyond(" is longer than maxLength ", *node.max_length);
    }
    if (node.pattern && !matches(*node.pattern, text, path)) {
      return problem_at(path, [&] {
        return excerpt(value) + " does not match pattern " + single_quoted(node.pattern->source);
      });
    }
    return "";
  }

  // --- Arrays.

  std::string check_array(const SchemaNode& node, const Json& value, const ValuePath& path,
                          int depth) {
    if (!value.is_array()) return "";
    const std::size_t size = value.size();
    if (node.min_items && size < *node.min_items) {
      return problem_at(path, [&] {
        return "has " + plural(size, "item") + ", fewer than minItems " +
               std::to_string(*node.min_items);
      });
    }
    if (node.max_items && size > *node.max_items) {
      return problem_at(path, [&] {
        return "has " + plural(size, "item") + ", more than maxItems " +
               std::to_string(*node.max_items);
      });
    }
    if (node.unique_items) {
      std::string problem = check_unique(value, path);
      if (!problem.empty()) return problem;
    }
    std::string problem = check_items(node, value, path, depth);
    if (!problem.empty()) return problem;
    return check_contains(node, value, path, depth);
  }

  // Items are compared only with earlier items of the same hash: linear, not quadratic.
  std::string check_unique(const Json& array, const ValuePath& path) {
    std::unordered_multimap<std::size_t, std::size_t> earlier;  // hash, index
    for (std::size_t i = 0; i < array.size(); ++i) {
      const std::size_t hash = json_hash(array[i]);
      const auto [first, last] = earlier.equal_range(hash);
      for (auto same_hash = first; same_hash != last; ++same_hash) {
        spend(1, path);
        const std::size_t j = same_hash->second;
        if (array[j] != array[i]) continue;
        return problem_at(path, [&] {
          return "items [" + std::to_string(j) + "] and [" + std::to_string(i) +
                 "] are equal (uniqueItems)";
        });
      }
      spend(1, path);
      earlier.emplace(hash, i);
    }
    return "";
  }

  std::string check_items(const SchemaNode& node, const Json& array, const ValuePath& path,
                          int depth) {
    for (std::size_t i = 0; i < array.size(); ++i) {
      const bool in_tuple = i < node.prefix_items.size();
      if (!in_tuple && !node.rest_items) break;
      const SchemaId id = in_tuple ? node.prefix_items[i] : *node.rest_items;
      std::string problem = check(id, array[i], path.item(i), depth + 1);
      if (!problem.empty()) return problem;
    }
    return "";
  }

  std::string check_contains(const SchemaNode& node, const Json& array, const ValuePath& path,
                             int depth) {
    if (!node.contains) return "";
    std::size_t matching = 0;
    {
      const Quietly quietly(quiet_);
      for (std::size_t i = 0; i < array.size(); ++i) {
        if (!node.max_contains && matching >= node.min_contains) break;
        if (check(*node.contains, array[i], path.item(i), depth + 1).empty()) ++matching;
      }
    }
    if (matching < node.min_contains) {
      return problem_at(path, [&] {
        if (matching == 0) return std::string("no item matches contains");
        return plural(matching, "item") + " match contains, fewer than minContains " +
               std::to_string(node.min_contains);
      });
    }
    if (node.max_contains && matching > *node.max_contains) {
      return problem_at(path, [&] {
        return plural(matching, "item") + " match contains, more than maxContains " +
               std::to_string(*node.max_contains);
      });
    }
    return "";
  }

  // --- Objects.

  std::string check_object(const SchemaNode& node, const Json& value, const ValuePath& path,
                           int depth) {
    if (!value.is_object()) return "";
    for (const std::string& name : node.required) {
      if (value.contains(name)) continue;
      return problem_at(path, [&] { return "missing required property " + single_quoted(name); });
    }
    const std::size_t size = value.size();
    if (node.min_properties && size < *node.min_properties) {
      return problem_at(path, [&] {
        return "has " + plural(size, "property") + ", fewer than minProperties " +
               std::to_string(*node.min_properties);
      });
    }
    if (node.max_properties && size > *node.max_properties) {
      return problem_at(path, [&] {
        return "has " + plural(size, "property") + ", more than maxProperties " +
               std::to_string(*node.max_properties);
      });
    }
    std::string problem = check_dependencies(node, value, path, depth);
    if (!problem.empty()) return problem;
    for (const auto& [name, member] : value.items()) {
      problem = check_member(node, name, member, path, depth);
      if (!problem.empty()) return problem;
    }
    return "";
  }

  std::string check_dependencies(const SchemaNode& node, const Json& object, const ValuePath& path,
                                 int depth) {
    for (const auto& [name, names] : node.dependent_required) {
      if (!object.contains(name)) continue;
      for (const std::string& needed : names) {
        if (object.contains(needed)) continue;
        return problem_at(path, [&] {
          return "property " + single_quoted(name) + " requires property " + single_quoted(needed);
        });
      }
    }
    for (const auto& [name, id] : node.dependent_schemas) {
      if (!object.contains(name)) continue;
      std::string problem = check(id, object, path, depth + 1);
      if (!problem.empty()) return problem;
    }
    return "";
  }

  // One member under propertyNames, properties, patternProperties and additionalProperties.
  std::string check_member(const SchemaNode& node, const std::string& name, const Json& member,
                           const ValuePath& path, int depth) {
    if (node.property_names) {
      std::string problem = check(*node.property_names, Json(name), path.name_of(name), depth + 1);
      if (!problem.empty()) return problem;
    }
    const ValuePath member_path = path.member(name);
    bool covered = false;
    if (const auto property = node.properties.find(name); property != node.properties.end()) {
      covered = true;
      std::string problem = check(property->second, member, member_path, depth + 1);
      if (!problem.empty()) return problem;
    }
    for (const auto& [pattern, id] : node.pattern_properties) {
      if (!matches(pattern, name, member_path)) continue;
      covered = true;
      std::string problem = check(id, member, member_path, depth + 1);
      if (!problem.empty()) return problem;
    }
    if (covered || !node.additional_properties) return "";
    if (schema_.nodes[*node.additional_properties].always == false) {
      return problem_at(path, [&] {
        return "property " + single_quoted(name) +
               " is not allowed (additionalProperties is false)";
      });
    }
    return check(*node.additional_properties, member, member_path, depth + 1);
  }

  // --- Schemas applied to the value itself.

  std::string check_all_of(const SchemaNode& node, const Json& value, const ValuePath& path,
                           int depth) {
    for (const SchemaId id : node.all_of) {
      std::string problem = check(id, value, path, depth + 1);
      if (!problem.empty()) return problem;
    }
    return "";
  }

  // The problem given is the first branch's (its text is the one written out).
  std::string check_any_of(const SchemaNode& node, const Json& value, const ValuePath& path,
                           int depth) {
    if (node.any_of.empty()) return "";
    const std::string first_problem = check(node.any_of[0], value, path, depth + 1);
    if (first_problem.empty()) return "";
    {
      const Quietly quietly(quiet_);
      for (std::size_t i = 1; i < node.any_of.size(); ++i) {
        if (check(node.any_of[i], value, path, depth + 1).empty()) return "";
      }
    }
    return problem_at(path, [&] {
      return "matches none of the " + std::to_string(node.any_of.size()) +
             " schemas of anyOf; anyOf[0]: " + first_problem;
    });
  }

  std::string check_one_of(const SchemaNode& node, const Json& value, const ValuePath& path,
                           int depth) {
    if (node.one_of.empty()) return "";
    const std::string first_problem = check(node.one_of[0], value, path, depth + 1);
    std::vector<std::size_t> matching;
    if (first_problem.empty()) matching.push_back(0);
    {
      const Quietly quietly(quiet_);
      for (std::size_t i = 1; i < node.one_of.size() && matching.size() < 2; ++i) {
        if (check(node.one_of[i], value, path, depth + 1).empty()) matching.push_back(i);
      }
    }
    if (matching.size() == 1) return "";
    if (matching.empty()) {
      return problem_at(path, [&] {
        return "matches none of the " + std::to_string(node.one_of.size()) +
               " schemas of oneOf; oneOf[0]: " + first_problem;
      });
    }
    return problem_at(path, [&] {
      return "matches both oneOf[" + std::to_string(matching[0]) + "] and oneOf[" +
             std::to_string(matching[1]) + "], not exactly one";
    });
  }

  std::string check_not(const SchemaNode& node, const Json& value, const ValuePath& path,
                        int depth) {
    if (!node.negated) return "";
    {
      const Quietly quietly(quiet_);
      if (!check(*node.negated, value, path, depth + 1).empty()) return "";
    }
    return problem_at(path, [&] { return excerpt(value) + " matches the schema of not"; });
  }

  std::string check_if(const SchemaNode& node, const Json& value, const ValuePath& path,
                       int depth) {
    if (!node.if_schema || (!node.then_schema && !node.else_schema)) return "";
    bool condition = false;
    {
      const Quietly quietly(quiet_);
      condition = check(*node.if_schema, value, path, depth + 1).empty();
    }
    const auto& branch = condition ? node.then_schema : node.else_schema;
    return branch ? check(*branch, value, path, depth + 1) : "";
  }

  const CompiledJsonSchema& schema_;
  std::size_t steps_ = 0;
  int quiet_ = 0;  // > 0 inside a branch whose problem is thrown away
};

}  // namespace

std::string first_problem(const CompiledJsonSchema& schema, const Json& value) {
  return ValueChecker(schema).problem(value);
}

}  // namespace infergate::json_schema
