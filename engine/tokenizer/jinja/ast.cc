#include "engine/tokenizer/jinja/ast.h"

#include <iterator>

namespace infergate::jinja::ast {
namespace {

void visit_all(const std::vector<NodePtr>& nodes, const std::function<void(const Node&)>& visit) {
  for (const NodePtr& node : nodes) {
    if (node) visit(*node);
  }
}

void visit_one(const NodePtr& node, const std::function<void(const Node&)>& visit) {
  if (node) visit(*node);
}

void for_each_expression_child(const Node& node, const std::function<void(const Node&)>& visit) {
  switch (node.kind) {
    case Kind::kArrayLiteral:
    case Kind::kTupleLiteral:
      return visit_all(as<ListLiteral>(node).items, visit);
    case Kind::kObjectLiteral:
      for (const auto& [key, value] : as<ObjectLiteral>(node).entries) {
        visit(*key);
        visit(*value);
      }
      return;
    case Kind::kMemberExpression:
      visit(*as<MemberExpression>(node).object);
      return visit(*as<MemberExpression>(node).property);
    case Kind::kCallExpression:
      visit(*as<CallExpression>(node).callee);
      return visit_all(as<CallExpression>(node).args, visit);
    case Kind::kBinaryExpression:
      visit(*as<BinaryExpression>(node).left);
      return visit(*as<BinaryExpression>(node).right);
    case Kind::kUnaryExpression:
      return visit(*as<UnaryExpression>(node).argument);
    case Kind::kFilterExpression:
      visit(*as<FilterExpression>(node).operand);
      return visit(*as<FilterExpression>(node).filter);
    case Kind::kTestExpression:
      return visit(*as<TestExpression>(node).operand);
    case Kind::kSelectExpression:
      visit(*as<SelectExpression>(node).lhs);
      return visit(*as<SelectExpression>(node).test);
    case Kind::kTernary:
      visit(*as<Ternary>(node).condition);
      visit(*as<Ternary>(node).if_true);
      return visit(*as<Ternary>(node).if_false);
    case Kind::kSliceExpression:
      visit_one(as<SliceExpression>(node).start, visit);
      visit_one(as<SliceExpression>(node).stop, visit);
      return visit_one(as<SliceExpression>(node).step, visit);
    case Kind::kKeywordArgumentExpression:
      return visit(*as<KeywordArgumentExpression>(node).value);
    case Kind::kSpreadExpression:
    case Kind::kKeywordSpreadExpression:
      return visit(*as<SpreadExpression>(node).argument);
    default:
      return;
  }
}

}  // namespace

const char* kind_name(Kind kind) {
  static constexpr const char* kNames[] = {"StringLiteral",
                                           "IntegerLiteral",
                                           "FloatLiteral",
                                           "ArrayLiteral",
                                           "TupleLiteral",
                                           "ObjectLiteral",
                                           "Identifier",
                                           "MemberExpression",
                                           "CallExpression",
                                           "BinaryExpression",
                                           "UnaryExpression",
                                           "FilterExpression",
                                           "TestExpression",
                                           "SelectExpression",
                                           "Ternary",
                                           "SliceExpression",
                                           "KeywordArgumentExpression",
                                           "SpreadExpression",
                                           "KeywordSpreadExpression",
                                           "Comment",
                                           "If",
                                           "For",
                                           "Break",
                                           "Continue",
                                           "Set",
                                           "Macro",
                                           "CallStatement",
                                           "FilterStatement"};
  static_assert(std::size(kNames) == static_cast<size_t>(Kind::kFilterStatement) + 1);
  return kNames[static_cast<int>(kind)];
}

void for_each_child(const Node& node, const std::function<void(const Node&)>& visit) {
  switch (node.kind) {
    case Kind::kIf:
      visit(*as<If>(node).test);
      visit_all(as<If>(node).body, visit);
      return visit_all(as<If>(node).alternate, visit);
    case Kind::kFor:
      visit(*as<For>(node).loopvar);
      visit(*as<For>(node).iterable);
      visit_all(as<For>(node).body, visit);
      return visit_all(as<For>(node).default_block, visit);
    case Kind::kSet:
      visit(*as<Set>(node).assignee);
      visit_one(as<Set>(node).value, visit);
      return visit_all(as<Set>(node).body, visit);
    case Kind::kMacro:
      visit_all(as<Macro>(node).params, visit);
      return visit_all(as<Macro>(node).body, visit);
    case Kind::kCallStatement:
      visit(*as<CallStatement>(node).call);
      visit_all(as<CallStatement>(node).caller_params, visit);
      return visit_all(as<CallStatement>(node).body, visit);
    case Kind::kFilterStatement:
      visit(*as<FilterStatement>(node).filter);
      return visit_all(as<FilterStatement>(node).body, visit);
    default:
      return for_each_expression_child(node, visit);
  }
}

}  // namespace infergate::jinja::ast
