#include "engine/tokenizer/jinja/interpreter.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "engine/tokenizer/jinja/eval_error.h"
#include "engine/tokenizer/jinja/globals.h"
#include "engine/tokenizer/jinja/is_tests.h"
#include "engine/tokenizer/jinja/js_text.h"
#include "engine/tokenizer/jinja/methods.h"
#include "engine/tokenizer/jinja/operators.h"
#include "engine/tokenizer/jinja/slice.h"
#include "engine/tokenizer/jinja/special_arguments.h"
#include "engine/tokenizer/jinja/value_text.h"

namespace infergate::jinja {
namespace {

using ast::Kind;
using ast::Node;

using ast::as;

const std::string& identifier_name(const Node& node) { return as<ast::Identifier>(node).name; }

constexpr int64_t kSignalSteps = 8;

}  // namespace

std::string Interpreter::run(const ast::Block& program, const ScopePtr& globals) {
  std::string out;
  try {
    out = evaluate_block(program, globals);
  } catch (const LoopSignal& signal) {
    throw LocatedError{"'break' or 'continue' outside of a for loop", signal.offset};
  }
  if (control_ != Control::kNone) {
    throw LocatedError{"'break' or 'continue' outside of a for loop", control_offset_};
  }
  return out;
}

Value Interpreter::evaluate(const Node& node, const ScopePtr& scope) {
  try {
    DepthGuard depth(state_);
    state_.charge(1);
    return dispatch(node, scope);
  } catch (const EvalError& error) {
    throw LocatedError{error.what(), node.offset};
  } catch (const RaisedException& error) {
    throw LocatedError{error.what(), node.offset};
  }
}

Value Interpreter::dispatch(const Node& node, const ScopePtr& scope) {
  switch (node.kind) {
    case Kind::kIf:
      return evaluate_if(as<ast::If>(node), scope);
    case Kind::kFor:
      return evaluate_for(as<ast::For>(node), scope);
    case Kind::kSet:
      return evaluate_set(as<ast::Set>(node), scope);
    case Kind::kMacro:
      return evaluate_macro(as<ast::Macro>(node), scope);
    case Kind::kCallStatement:
      return evaluate_call_statement(as<ast::CallStatement>(node), scope);
    case Kind::kFilterStatement:
      return evaluate_filter_statement(as<ast::FilterStatement>(node), scope);
    case Kind::kBreak:
    case Kind::kContinue:
      return loop_control(node);
    case Kind::kComment:
      return Value::null();
    default:
      return evaluate_expression(node, scope);
  }
}

Value Interpreter::evaluate_expression(const Node& node, const ScopePtr& scope) {
  switch (node.kind) {
    case Kind::kStringLiteral:
      return Value::string(as<ast::StringLiteral>(node).value);
    case Kind::kIntegerLiteral:
      return Value::integer(as<ast::NumericLiteral>(node).value);
    case Kind::kFloatLiteral:
      return Value::floating(as<ast::NumericLiteral>(node).value);
    case Kind::kArrayLiteral:
    case Kind::kTupleLiteral:
      return evaluate_list(as<ast::ListLiteral>(node), scope);
    case Kind::kObjectLiteral:
      return evaluate_object(as<ast::ObjectLiteral>(node), scope);
    case Kind::kIdentifier:
      return scope->lookup(state_, identifier_name(node));
    case Kind::kCallExpression:
      return evaluate_call(as<ast::CallExpression>(node), scope);
    case Kind::kMemberExpression:
      return evaluate_member(as<ast::MemberExpression>(node), scope);
    case Kind::kUnaryExpression:
      return unary_operation(as<ast::UnaryExpression>(node).op,
                             evaluate(*as<ast::UnaryExpression>(node).argument, scope));
    case Kind::kBinaryExpression:
      return evaluate_binary(as<ast::BinaryExpression>(node), scope);
    case Kind::kFilterExpression: {
      const auto& filter = as<ast::FilterExpression>(node);
      return evaluate_filter(evaluate(*filter.operand, scope), *filter.filter, scope);
    }
    case Kind::kTestExpression:
      return evaluate_test(as<ast::TestExpression>(node), scope);
    case Kind::kSelectExpression: {
      const auto& select = as<ast::SelectExpression>(node);
      if (!truthy(evaluate(*select.test, scope))) return Value();
      return evaluate(*select.lhs, scope);
    }
    case Kind::kTernary: {
      const auto& ternary = as<ast::Ternary>(node);
      const bool condition = truthy(evaluate(*ternary.condition, scope));
      return evaluate(condition ? *ternary.if_true : *ternary.if_false, scope);
    }
    default:
      throw EvalError(std::string("Unknown node type: ") + ast::kind_name(node.kind));
  }
}

// ---- blocks and statements

std::string Interpreter::evaluate_block(const ast::Block& block, const ScopePtr& scope) {
  std::string out;
  for (const ast::NodePtr& statement : block) {
    const Value value = evaluate(*statement, scope);
    // A break or continue: what the iteration wrote so far is dropped anyway.
    if (control_ != Control::kNone) return out;
    if (!value.is_null() && !value.is_undefined()) append_output(out, value, *statement);
  }
  return out;
}

void Interpreter::append_output(std::string& out, const Value& value, const Node& statement) {
  try {
    if (value.is_string()) {
      state_.check_string(out.size() + value.str().size());
      state_.charge_bytes(value.str().size());
      out += value.str();
      return;
    }
    const std::string text = output_text(state_, value);
    state_.check_string(out.size() + text.size());
    out += text;
  } catch (const EvalError& error) {
    throw LocatedError{error.what(), statement.offset};
  }
}

Value Interpreter::evaluate_if(const ast::If& node, const ScopePtr& scope) {
  const bool test = truthy(evaluate(*node.test, scope));
  return state_.make_string(evaluate_block(test ? node.body : node.alternate, scope));
}

Value Interpreter::evaluate_for(const ast::For& node, const ScopePtr& parent) {
  const ScopePtr scope = std::make_shared<Scope>(parent);
  const std::vector<Value> items = loop_items(node, scope);
  return run_loop(node, items, scope);
}

// The items the loop runs over: an object's keys, and only those passing `if` when given.
std::vector<Value> Interpreter::loop_items(const ast::For& node, const ScopePtr& scope) {
  const Node* test = nullptr;
  Value iterable;
  if (node.iterable->kind == Kind::kSelectExpression) {
    const auto& select = as<ast::SelectExpression>(*node.iterable);
    iterable = evaluate(*select.lhs, scope);
    test = select.test.get();
  } else {
    iterable = evaluate(*node.iterable, scope);
  }
  if (!iterable.is_array() && !iterable.is_object()) {
    throw EvalError(std::string("Expected iterable or object type in for loop: got ") +
                    type_name(iterable));
  }
  if (iterable.is_object()) iterable = object_keys(state_, iterable);
  std::vector<Value> items;
  for (const Value& item : iterable.items()) {
    if (node.loopvar->kind == Kind::kTupleLiteral) {
      if (!item.is(Value::Kind::kArray)) {
        throw EvalError(std::string("Cannot unpack non-iterable type: ") + type_name(item));
      }
      const size_t names = as<ast::ListLiteral>(*node.loopvar).items.size();
      if (names != item.items().size()) {
        throw EvalError(std::string("Too ") + (names > item.items().size() ? "few" : "many") +
                        " items to unpack");
      }
    }
    if (test) {
      const ScopePtr test_scope = std::make_shared<Scope>(scope);
      bind_loop_variable(*node.loopvar, item, *test_scope);
      if (!truthy(evaluate(*test, test_scope))) continue;
    }
    items.push_back(item);
  }
  return items;
}

Value Interpreter::run_loop(const ast::For& node, const std::vector<Value>& items,
                            const ScopePtr& scope) {
  std::string result;
  bool completed_one = false;
  for (size_t i = 0; i < items.size(); ++i) {
    scope->set("loop", loop_object(items, i));
    bind_loop_variable(*node.loopvar, items[i], *scope);
    std::string body;
    Control control = Control::kNone;
    try {
      body = evaluate_block(node.body, scope);
    } catch (const LoopSignal& signal) {
      control = signal.control;
    }
    if (control_ != Control::kNone) std::swap(control, control_);
    if (control == Control::kContinue) continue;
    if (control == Control::kBreak) break;
    state_.check_string(result.size() + body.size());
    result += body;
    completed_one = true;
  }
  // {% else %} runs when no iteration ran to its end (none at all, or all cut short).
  if (!completed_one) {
    const std::string otherwise = evaluate_block(node.default_block, scope);
    state_.check_string(result.size() + otherwise.size());
    result += otherwise;
  }
  return state_.make_string(std::move(result));
}

Value Interpreter::loop_object(const std::vector<Value>& items, size_t i) {
  const auto n = static_cast<double>(items.size());
  const auto index = static_cast<double>(i);
  Mapping loop;
  loop.set("index", Value::integer(index + 1));
  loop.set("index0", Value::integer(index));
  loop.set("revindex", Value::integer(n - index));
  loop.set("revindex0", Value::integer(n - index - 1));
  loop.set("first", Value::boolean(i == 0));
  loop.set("last", Value::boolean(i + 1 == items.size()));
  loop.set("length", Value::integer(n));
  loop.set("previtem", i > 0 ? items[i - 1] : Value());
  loop.set("nextitem", i + 1 < items.size() ? items[i + 1] : Value());
  return state_.make_object(std::move(loop));
}

void Interpreter::bind_loop_variable(const Node& loopvar, const Value& item, Scope& scope) {
  if (loopvar.kind == Kind::kIdentifier) return scope.set(identifier_name(loopvar), item);
  const auto& names = as<ast::ListLiteral>(loopvar).items;
  for (size_t j = 0; j < names.size(); ++j) {
    if (names[j]->kind != Kind::kIdentifier) {
      throw EvalError(std::string("Cannot unpack non-identifier type: ") +
                      ast::kind_name(names[j]->kind));
    }
    scope.set(identifier_name(*names[j]), item.items()[j]);
  }
}

Value Interpreter::evaluate_set(const ast::Set& node, const ScopePtr& scope) {
  Value value;
  if (node.value) {
    value = evaluate(*node.value, scope);
  } else {
    std::string body = evaluate_block(node.body, scope);
    if (control_ != Control::kNone) return Value::null();
    value = state_.make_string(std::move(body));
  }
  assign(*node.assignee, value, scope);
  return Value::null();
}

void Interpreter::assign(const Node& target, const Value& value, const ScopePtr& scope) {
  if (target.kind == Kind::kIdentifier) return scope->set(identifier_name(target), value);
  if (target.kind == Kind::kTupleLiteral) {
    const auto& names = as<ast::ListLiteral>(target).items;
    if (!value.is_array()) {
      throw EvalError(std::string("Cannot unpack non-iterable type in set: ") + type_name(value));
    }
    if (names.size() != value.items().size()) {
      throw EvalError(std::string("Too ") + (names.size() > value.items().size() ? "few" : "many") +
                      " items to unpack in set");
    }
    for (size_t i = 0; i < names.size(); ++i) {
      if (names[i]->kind != Kind::kIdentifier) {
        throw EvalError(std::string("Cannot unpack to non-identifier in set: ") +
                        ast::kind_name(names[i]->kind));
      }
      scope->set(identifier_name(*names[i]), value.items()[i]);
    }
    return;
  }
  if (target.kind == Kind::kMemberExpression) {
    const auto& member = as<ast::MemberExpression>(target);
    const Value object = evaluate(*member.object, scope);
    if (!object.is(Value::Kind::kNamespace)) {
      throw EvalError("cannot assign attribute on non-namespace object");
    }
    // As in runtime.ts, ns[x] assigns the key "x" (the property's name, not its value).
    if (member.property->kind != Kind::kIdentifier) {
      throw EvalError("Cannot assign to member with non-identifier property");
    }
    object.space()->map.set(identifier_name(*member.property), value);
    return;
  }
  throw EvalError(std::string("Invalid LHS inside assignment expression: ") +
                  ast::kind_name(target.kind));
}

Value Interpreter::evaluate_macro(const ast::Macro& node, const ScopePtr& scope) {
  auto callable = std::make_shared<Callable>();
  callable->type = Callable::Type::kMacro;
  callable->name = node.name;
  callable->macro = &node;
  scope->set(node.name, Value::function(std::move(callable)));
  return Value::null();
}

// {% call(params) m(args) %}body{% endcall %}: m runs with `caller` defined, a function whose
// body is the block, evaluated under the scope of the call statement.
Value Interpreter::evaluate_call_statement(const ast::CallStatement& node, const ScopePtr& scope) {
  auto caller = std::make_shared<Callable>();
  caller->type = Callable::Type::kCaller;
  caller->name = "caller";
  caller->call = &node;
  caller->scope = scope;
  auto [args, kwargs] = evaluate_arguments(node.call->args, scope);
  args.push_back(state_.make_object(std::move(kwargs), Value::Kind::kKeywordArguments));
  const Value function = evaluate(*node.call->callee, scope);
  if (!function.is_function()) {
    throw EvalError(std::string("Cannot call something that is not a function: got ") +
                    type_name(function));
  }
  const ScopePtr call_scope = std::make_shared<Scope>(scope);
  call_scope->set("caller", Value::function(std::move(caller)));
  return invoke(function, std::move(args), call_scope);
}

Value Interpreter::evaluate_filter_statement(const ast::FilterStatement& node,
                                             const ScopePtr& scope) {
  std::string body = evaluate_block(node.body, scope);
  if (control_ != Control::kNone) return Value::null();
  return evaluate_filter(state_.make_string(std::move(body)), *node.filter, scope);
}

Value Interpreter::loop_control(const Node& node) {
  control_ = node.kind == Kind::kBreak ? Control::kBreak : Control::kContinue;
  control_offset_ = node.offset;
  return Value::null();
}

// ---- expressions

Value Interpreter::evaluate_list(const ast::ListLiteral& node, const ScopePtr& scope) {
  Args items;
  items.reserve(node.items.size());
  for (const ast::NodePtr& item : node.items) items.push_back(evaluate(*item, scope));
  const bool tuple = node.kind == Kind::kTupleLiteral;
  return state_.make_array(std::move(items), tuple ? Value::Kind::kTuple : Value::Kind::kArray);
}

Value Interpreter::evaluate_object(const ast::ObjectLiteral& node, const ScopePtr& scope) {
  Mapping map;
  for (const auto& [key_node, value_node] : node.entries) {
    const Value key = evaluate(*key_node, scope);
    if (!key.is_string()) {
      throw EvalError(std::string("Object keys must be strings: got ") + type_name(key));
    }
    map.set(key.str(), evaluate(*value_node, scope));
  }
  return state_.make_object(std::move(map));
}

Value Interpreter::evaluate_binary(const ast::BinaryExpression& node, const ScopePtr& scope) {
  Value left = evaluate(*node.left, scope);
  if (node.op == ast::BinaryOp::kAnd) return truthy(left) ? evaluate(*node.right, scope) : left;
  if (node.op == ast::BinaryOp::kOr) return truthy(left) ? left : evaluate(*node.right, scope);
  const Value right = evaluate(*node.right, scope);
  return binary_operation(state_, node.op, node.op_text, left, right);
}

Value Interpreter::evaluate_member(const ast::MemberExpression& node, const ScopePtr& scope) {
  const Value object = evaluate(*node.object, scope);
  const Node& property = *node.property;
  if (node.computed && property.kind == Kind::kSliceExpression) {
    return evaluate_slice(object, as<ast::SliceExpression>(property), scope);
  }
  if (node.computed) return member_of(object, evaluate(property, scope));
  if (property.kind == Kind::kIntegerLiteral) {
    return member_of(object, Value::integer(as<ast::NumericLiteral>(property).value));
  }
  return member_of(object, state_.make_string(identifier_name(property)));
}

Value Interpreter::member_of(const Value& object, const Value& property) {
  if (object.is_attribute_container()) {
    if (!property.is_string()) {
      throw EvalError(std::string("Cannot access property with non-string: got ") +
                      type_name(property));
    }
    if (const Value* found = object.mapping().find(property.str())) return *found;
    return object.is_object() ? builtin_member(state_, object, property.str()) : Value();
  }
  if (object.is_array() || object.is_string()) {
    if (property.is(Value::Kind::kInteger)) {
      if (object.is_string()) {
        const auto character = utf16_at(object.str(), property.number_value());
        return character ? state_.make_string(*character) : Value();
      }
      double index = std::isnan(property.number_value()) ? 0 : std::trunc(property.number_value());
      const auto size = static_cast<double>(object.items().size());
      if (index < 0) index += size;
      if (index < 0 || index >= size) return Value();
      return object.items()[static_cast<size_t>(index)];
    }
    if (property.is_string()) return builtin_member(state_, object, property.str());
    throw EvalError(std::string("Cannot access property with non-string/non-number: got ") +
                    type_name(property));
  }
  if (!property.is_string()) {
    throw EvalError(std::string("Cannot access property with non-string: got ") +
                    type_name(property));
  }
  return builtin_member(state_, object, property.str());
}

Value Interpreter::evaluate_slice(const Value& object, const ast::SliceExpression& node,
                                  const ScopePtr& scope) {
  if (!object.is_array() && !object.is_string()) {
    throw EvalError("Slice object must be an array or string");
  }
  const auto part = [&](const ast::NodePtr& part_node, const char* name) {
    const Value value = part_node ? evaluate(*part_node, scope) : Value();
    if (!value.is(Value::Kind::kInteger) && !value.is_undefined()) {
      throw EvalError(std::string("Slice ") + name + " must be numeric or undefined");
    }
    return value;
  };
  const Value start = part(node.start, "start");
  const Value stop = part(node.stop, "stop");
  const Value step = part(node.step, "step");
  if (object.is_string()) {
    state_.charge_bytes(object.str().size());
    const auto length = static_cast<double>(code_point_count(object.str()));
    return state_.make_string(slice_text(object.str(), slice_range(length, start, stop, step)));
  }
  const SliceRange range =
      slice_range(static_cast<double>(object.items().size()), start, stop, step);
  Args items;
  for (double i = range.start; range.direction * i < range.direction * range.stop;
       i += range.step) {
    state_.charge(1);
    items.push_back(object.items()[static_cast<size_t>(i)]);
  }
  return state_.make_array(std::move(items));
}

Value Interpreter::evaluate_call(const ast::CallExpression& node, const ScopePtr& scope) {
  auto [args, kwargs] = evaluate_arguments(node.args, scope);
  if (!kwargs.empty()) {
    args.push_back(state_.make_object(std::move(kwargs), Value::Kind::kKeywordArguments));
  }
  const Value function = evaluate(*node.callee, scope);
  if (!function.is_function()) {
    throw EvalError(std::string("Cannot call something that is not a function: got ") +
                    type_name(function));
  }
  return invoke(function, std::move(args), scope);
}

// Positional arguments first (a *spread included), then keyword ones, as Python evaluates.
std::pair<Interpreter::Args, Mapping> Interpreter::evaluate_arguments(
    const std::vector<ast::NodePtr>& args, const ScopePtr& scope) {
  Args positional;
  Mapping keywords;
  for (const ast::NodePtr& arg : args) {
    if (arg->kind == Kind::kSpreadExpression) {
      const Value value = evaluate(*as<ast::SpreadExpression>(*arg).argument, scope);
      if (!value.is_array()) {
        throw EvalError(std::string("Cannot unpack non-iterable type: ") + type_name(value));
      }
      state_.check_collection(positional.size() + value.items().size());
      positional.insert(positional.end(), value.items().begin(), value.items().end());
    } else if (arg->kind != Kind::kKeywordArgumentExpression &&
               arg->kind != Kind::kKeywordSpreadExpression) {
      positional.push_back(evaluate(*arg, scope));
    }
  }
  const auto add = [&](const std::string& key, Value value) {
    if (keywords.find(key))
      throw EvalError("Got multiple values for keyword argument '" + key + "'");
    keywords.set(key, std::move(value));
  };
  for (const ast::NodePtr& arg : args) {
    if (arg->kind == Kind::kKeywordArgumentExpression) {
      const auto& keyword = as<ast::KeywordArgumentExpression>(*arg);
      add(keyword.key, evaluate(*keyword.value, scope));
    } else if (arg->kind == Kind::kKeywordSpreadExpression) {
      const Value value = evaluate(*as<ast::SpreadExpression>(*arg).argument, scope);
      if (!value.is_object()) {
        throw EvalError(std::string("Argument after ** must be a mapping, not ") +
                        type_name(value));
      }
      for (const auto& [key, item] : value.mapping().entries) add(key, item);
    }
  }
  return {std::move(positional), std::move(keywords)};
}

Value Interpreter::evaluate_filter(const Value& operand, const Node& filter,
                                   const ScopePtr& scope) {
  FilterCall call;
  if (filter.kind == Kind::kIdentifier) {
    call.name = identifier_name(filter);
    return apply_filter(state_, operand, call);
  }
  if (filter.kind != Kind::kCallExpression) {
    throw EvalError(std::string("Unknown filter: ") + ast::kind_name(filter.kind));
  }
  const auto& node = as<ast::CallExpression>(filter);
  if (node.callee->kind != Kind::kIdentifier) {
    throw EvalError(std::string("Unknown filter: ") + ast::kind_name(node.callee->kind));
  }
  call.name = identifier_name(*node.callee);
  call.called = true;
  auto [args, kwargs] = evaluate_arguments(node.args, scope);
  call.args = std::move(args);
  call.kwargs = std::move(kwargs);
  call.literal_args = std::all_of(node.args.begin(), node.args.end(), [](const ast::NodePtr& arg) {
    return arg->kind == Kind::kStringLiteral;
  });
  return apply_filter(state_, operand, call);
}

Value Interpreter::evaluate_test(const ast::TestExpression& node, const ScopePtr& scope) {
  const Value operand = evaluate(*node.operand, scope);
  if (!is_known_test(node.test)) throw EvalError("Unknown test: " + node.test);
  return Value::boolean(run_test(node.test, operand) != node.negate);
}

// ---- functions

Value Interpreter::invoke(const Value& function, Args args, const ScopePtr& scope) {
  const Callable& callable = function.callable();
  switch (callable.type) {
    case Callable::Type::kBuiltin:
      return callable.builtin(state_, callable.self, args);
    case Callable::Type::kMacro:
      return invoke_body("'" + callable.name + "'", callable.macro->params, callable.macro->special,
                         callable.macro->body, std::move(args), std::make_shared<Scope>(scope));
    case Callable::Type::kCaller:
      // Jinja names a call block's anonymous macro None in its messages.
      return invoke_body("None", callable.call->caller_params, callable.call->special,
                         callable.call->body, std::move(args),
                         std::make_shared<Scope>(callable.scope));
  }
  return Value();
}

Value Interpreter::invoke_body(const std::string& display_name,
                               const std::vector<ast::NodePtr>& params,
                               ast::SpecialArguments special, const ast::Block& body, Args args,
                               ScopePtr scope) {
  bind_arguments(display_name, params, special, std::move(args), scope);
  std::string out = evaluate_block(body, scope);
  if (control_ != Control::kNone) {
    // An exception costs far more than a step: charged so, a loop of them stays bounded.
    state_.charge(kSignalSteps);
    const Control control = std::exchange(control_, Control::kNone);
    throw LoopSignal{control, control_offset_};
  }
  return state_.make_string(std::move(out));
}

// runtime.ts bindMacroArguments: every parameter is bound (to undefined if missing) before the
// defaults are evaluated, in the macro's scope; extra arguments go to kwargs/varargs when the
// body reads them, and are refused otherwise.
void Interpreter::bind_arguments(const std::string& display_name,
                                 const std::vector<ast::NodePtr>& params,
                                 ast::SpecialArguments special, Args args, const ScopePtr& scope) {
  Mapping keywords;
  if (!args.empty() && args.back().is(Value::Kind::kKeywordArguments)) {
    keywords = args.back().mapping();
    args.pop_back();
  }
  std::vector<std::pair<const std::string*, const Node*>> pending_defaults;
  for (size_t i = 0; i < params.size(); ++i) {
    const Parameter param = parameter_of(*params[i]);
    if (i < args.size()) {
      scope->set(*param.name, args[i]);
      continue;
    }
    if (const Value* given = keywords.find(*param.name)) {
      scope->set(*param.name, *given);
      keywords.erase(*param.name);
      continue;
    }
    if (param.default_value) pending_defaults.emplace_back(param.name, param.default_value);
    scope->set(*param.name, Value());
  }
  if (special.kwargs) {
    scope->set("kwargs", state_.make_object(keywords));
  } else if (!keywords.empty()) {
    throw EvalError("macro " + display_name + " takes no keyword argument '" +
                    keywords.entries.front().first + "'");
  }
  if (special.varargs) {
    const size_t extra = args.size() > params.size() ? params.size() : args.size();
    scope->set("varargs",
               state_.make_array(Args(args.begin() + static_cast<ptrdiff_t>(extra), args.end())));
  } else if (args.size() > params.size()) {
    throw EvalError("macro " + display_name + " takes not more than " +
                    std::to_string(params.size()) + " argument(s)");
  }
  for (const auto& [name, value] : pending_defaults) scope->set(*name, evaluate(*value, scope));
}

}  // namespace infergate::jinja
