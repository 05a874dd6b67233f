// Evaluates a syntax tree as @huggingface/jinja's Interpreter does (runtime.ts): blocks render
// to strings, `set` writes the current scope (a for loop has one scope for all iterations, a
// macro call a new one under its caller's), break and continue drop the rest of the iteration's
// output and reach through macro calls to the nearest loop. Every node evaluated costs a step
// and a level of depth (render_state.h); errors come back as LocatedErrors at the innermost
// node.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "engine/tokenizer/jinja/ast.h"
#include "engine/tokenizer/jinja/filters.h"
#include "engine/tokenizer/jinja/scope.h"

namespace infergate::jinja {

class Interpreter {
 public:
  explicit Interpreter(RenderState& state) : state_(state) {}

  // Throws LocatedError.
  std::string run(const ast::Block& program, const ScopePtr& globals);

 private:
  enum class Control : uint8_t { kNone, kBreak, kContinue };
  // A break or continue leaving a macro or caller body: an exception up to the nearest loop.
  struct LoopSignal {
    Control control;
    uint32_t offset;
  };
  using Args = std::vector<Value>;

  Value evaluate(const ast::Node& node, const ScopePtr& scope);
  Value dispatch(const ast::Node& node, const ScopePtr& scope);
  Value evaluate_expression(const ast::Node& node, const ScopePtr& scope);
  std::string evaluate_block(const ast::Block& block, const ScopePtr& scope);
  void append_output(std::string& out, const Value& value, const ast::Node& statement);

  // Statements.
  Value evaluate_if(const ast::If& node, const ScopePtr& scope);
  Value evaluate_for(const ast::For& node, const ScopePtr& scope);
  std::vector<Value> loop_items(const ast::For& node, const ScopePtr& scope);
  Value run_loop(const ast::For& node, const std::vector<Value>& items, const ScopePtr& scope);
  Value loop_object(const std::vector<Value>& items, size_t i);
  void bind_loop_variable(const ast::Node& loopvar, const Value& item, Scope& scope);
  Value evaluate_set(const ast::Set& node, const ScopePtr& scope);
  void assign(const ast::Node& target, const Value& value, const ScopePtr& scope);
  Value evaluate_macro(const ast::Macro& node, const ScopePtr& scope);
  Value evaluate_call_statement(const ast::CallStatement& node, const ScopePtr& scope);
  Value evaluate_filter_statement(const ast::FilterStatement& node, const ScopePtr& scope);
  Value loop_control(const ast::Node& node);

  // Expressions.
  Value evaluate_list(const ast::ListLiteral& node, const ScopePtr& scope);
  Value evaluate_object(const ast::ObjectLiteral& node, const ScopePtr& scope);
  Value evaluate_binary(const ast::BinaryExpression& node, const ScopePtr& scope);
  Value evaluate_member(const ast::MemberExpression& node, const ScopePtr& scope);
  Value member_of(const Value& object, const Value& property);
  Value evaluate_slice(const Value& object, const ast::SliceExpression& node,
                       const ScopePtr& scope);
  Value evaluate_call(const ast::CallExpression& node, const ScopePtr& scope);
  std::pair<Args, Mapping> evaluate_arguments(const std::vector<ast::NodePtr>& args,
                                              const ScopePtr& scope);
  Value evaluate_filter(const Value& operand, const ast::Node& filter, const ScopePtr& scope);
  Value evaluate_test(const ast::TestExpression& node, const ScopePtr& scope);

  // Functions.
  Value invoke(const Value& function, Args args, const ScopePtr& scope);
  Value invoke_body(const std::string& display_name, const std::vector<ast::NodePtr>& params,
                    ast::SpecialArguments special, const ast::Block& body, Args args,
                    ScopePtr scope);
  void bind_arguments(const std::string& display_name, const std::vector<ast::NodePtr>& params,
                      ast::SpecialArguments special, Args args, const ScopePtr& scope);

  RenderState& state_;
  Control control_ = Control::kNone;  // a break or continue unwinding the blocks of a loop
  uint32_t control_offset_ = 0;
};

}  // namespace infergate::jinja
