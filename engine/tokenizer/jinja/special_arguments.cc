#include "engine/tokenizer/jinja/special_arguments.h"

namespace infergate::jinja {
namespace {

using ast::Kind;
using ast::Node;

using ast::as;

class Visitor {
 public:
  ast::SpecialArguments accessed;

  void declare_params(const std::vector<ast::NodePtr>& params) {
    for (const ast::NodePtr& param : params) declare(*parameter_of(*param).name);
  }

  void visit_block(const ast::Block& block) {
    for (const ast::NodePtr& node : block) visit(*node);
  }

  void visit(const Node& node) {
    switch (node.kind) {
      case Kind::kFor:
        return visit_for(as<ast::For>(node));
      case Kind::kSet:
        declare_target(*as<ast::Set>(node).assignee);
        if (as<ast::Set>(node).value) visit(*as<ast::Set>(node).value);
        return visit_block(as<ast::Set>(node).body);
      case Kind::kMacro:
        declare_params(as<ast::Macro>(node).params);
        visit_defaults(as<ast::Macro>(node).params);
        return visit_block(as<ast::Macro>(node).body);
      case Kind::kCallStatement:
        visit(*as<ast::CallStatement>(node).call);
        declare_params(as<ast::CallStatement>(node).caller_params);
        visit_defaults(as<ast::CallStatement>(node).caller_params);
        return visit_block(as<ast::CallStatement>(node).body);
      case Kind::kFilterStatement:
        visit_block(as<ast::FilterStatement>(node).body);
        return visit_filter(*as<ast::FilterStatement>(node).filter);
      case Kind::kIdentifier:
        return access(as<ast::Identifier>(node).name);
      case Kind::kMemberExpression:
        visit(*as<ast::MemberExpression>(node).object);
        if (as<ast::MemberExpression>(node).computed)
          visit(*as<ast::MemberExpression>(node).property);
        return;
      case Kind::kFilterExpression:
        visit(*as<ast::FilterExpression>(node).operand);
        return visit_filter(*as<ast::FilterExpression>(node).filter);
      case Kind::kTestExpression:
        return visit(*as<ast::TestExpression>(node).operand);
      case Kind::kSelectExpression:
        visit(*as<ast::SelectExpression>(node).test);
        return visit(*as<ast::SelectExpression>(node).lhs);
      case Kind::kKeywordArgumentExpression:
        return visit(*as<ast::KeywordArgumentExpression>(node).value);
      default:
        return ast::for_each_child(node, [this](const Node& child) { visit(child); });
    }
  }

 private:
  void declare(const std::string& name) {
    if (name == "kwargs") declared_.kwargs = true;
    if (name == "varargs") declared_.varargs = true;
  }

  void access(const std::string& name) {
    if (name == "kwargs" && !declared_.kwargs) accessed.kwargs = true;
    if (name == "varargs" && !declared_.varargs) accessed.varargs = true;
  }

  void declare_target(const Node& target) {
    if (target.kind == Kind::kIdentifier) declare(as<ast::Identifier>(target).name);
    if (target.kind != Kind::kTupleLiteral) return;
    for (const ast::NodePtr& item : as<ast::ListLiteral>(target).items) declare_target(*item);
  }

  void visit_defaults(const std::vector<ast::NodePtr>& params) {
    for (const ast::NodePtr& param : params) {
      if (const Node* value = parameter_of(*param).default_value) visit(*value);
    }
  }

  // A filter's name is syntax, not a variable; its arguments are read.
  void visit_filter(const Node& filter) {
    if (filter.kind != Kind::kCallExpression) return;
    for (const ast::NodePtr& arg : as<ast::CallExpression>(filter).args) visit(*arg);
  }

  // Jinja visits a loop's condition after its body and else block.
  void visit_for(const ast::For& loop) {
    declare_target(*loop.loopvar);
    if (loop.iterable->kind == Kind::kSelectExpression) {
      const auto& select = as<ast::SelectExpression>(*loop.iterable);
      visit(*select.lhs);
      visit_block(loop.body);
      visit_block(loop.default_block);
      return visit(*select.test);
    }
    visit(*loop.iterable);
    visit_block(loop.body);
    visit_block(loop.default_block);
  }

  ast::SpecialArguments declared_;
};

}  // namespace

ast::SpecialArguments find_special_arguments(const std::vector<ast::NodePtr>& params,
                                             const ast::Block& body) {
  Visitor visitor;
  // This macro's own parameters count as declared; its defaults are not scanned.
  visitor.declare_params(params);
  visitor.visit_block(body);
  return visitor.accessed;
}

Parameter parameter_of(const ast::Node& param) {
  if (param.kind == Kind::kKeywordArgumentExpression) {
    const auto& keyword = as<ast::KeywordArgumentExpression>(param);
    return {&keyword.key, keyword.value.get()};
  }
  return {&as<ast::Identifier>(param).name, nullptr};
}

}  // namespace infergate::jinja
