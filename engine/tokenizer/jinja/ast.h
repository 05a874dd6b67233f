// The syntax tree of a template, node for node as @huggingface/jinja's ast.ts builds it (the
// kinds keep its names for error messages). Statements and expressions share one Node base; a
// template is a Block of statements.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace infergate::jinja::ast {

enum class Kind : uint8_t {
  kStringLiteral,  // also the text between tags
  kIntegerLiteral,
  kFloatLiteral,
  kArrayLiteral,
  kTupleLiteral,
  kObjectLiteral,
  kIdentifier,
  kMemberExpression,
  kCallExpression,
  kBinaryExpression,
  kUnaryExpression,
  kFilterExpression,
  kTestExpression,
  kSelectExpression,  // `a if b` without else
  kTernary,
  kSliceExpression,
  kKeywordArgumentExpression,
  kSpreadExpression,         // *args
  kKeywordSpreadExpression,  // **kwargs
  kComment,
  kIf,
  kFor,
  kBreak,
  kContinue,
  kSet,
  kMacro,
  kCallStatement,
  kFilterStatement,
};

const char* kind_name(Kind kind);

struct Node {
  Node(Kind k, uint32_t p) : kind(k), offset(p) {}
  virtual ~Node() = default;
  Kind kind;
  uint32_t offset;  // where it starts in the template's source
  int depth = 1;    // 1 + the deepest child's
};

using NodePtr = std::unique_ptr<Node>;
using Block = std::vector<NodePtr>;

struct StringLiteral : Node {
  StringLiteral(uint32_t p, std::string v)
      : Node(Kind::kStringLiteral, p), value(std::make_shared<const std::string>(std::move(v))) {}
  std::shared_ptr<const std::string> value;  // shared with the values it evaluates to
};

struct NumericLiteral : Node {  // kIntegerLiteral or kFloatLiteral
  NumericLiteral(Kind k, uint32_t p, double v) : Node(k, p), value(v) {}
  double value;
};

struct ListLiteral : Node {  // kArrayLiteral or kTupleLiteral
  ListLiteral(Kind k, uint32_t p) : Node(k, p) {}
  std::vector<NodePtr> items;
};

struct ObjectLiteral : Node {
  explicit ObjectLiteral(uint32_t p) : Node(Kind::kObjectLiteral, p) {}
  std::vector<std::pair<NodePtr, NodePtr>> entries;
};

struct Identifier : Node {
  Identifier(uint32_t p, std::string n) : Node(Kind::kIdentifier, p), name(std::move(n)) {}
  std::string name;
};

struct MemberExpression : Node {
  MemberExpression(uint32_t p, NodePtr o, NodePtr prop, bool c)
      : Node(Kind::kMemberExpression, p),
        object(std::move(o)),
        property(std::move(prop)),
        computed(c) {}
  NodePtr object;
  NodePtr property;  // a[...]: any expression or a slice; a.b: an identifier or integer
  bool computed;
};

struct CallExpression : Node {
  CallExpression(uint32_t p, NodePtr c, std::vector<NodePtr> a)
      : Node(Kind::kCallExpression, p), callee(std::move(c)), args(std::move(a)) {}
  NodePtr callee;
  std::vector<NodePtr> args;
};

enum class BinaryOp : uint8_t {
  kAnd,
  kOr,
  kEqual,
  kNotEqual,
  kLess,
  kGreater,
  kLessEqual,
  kGreaterEqual,
  kIn,
  kNotIn,
  kAdd,
  kSubtract,
  kConcat,
  kMultiply,
  kDivide,
  kFloorDivide,
  kModulo,
  kPower,
};

struct BinaryExpression : Node {
  BinaryExpression(uint32_t p, BinaryOp o, std::string t, NodePtr l, NodePtr r)
      : Node(Kind::kBinaryExpression, p),
        op(o),
        op_text(std::move(t)),
        left(std::move(l)),
        right(std::move(r)) {}
  BinaryOp op;
  std::string op_text;  // as written, for messages
  NodePtr left;
  NodePtr right;
};

enum class UnaryOp : uint8_t { kNot, kMinus, kPlus };

struct UnaryExpression : Node {
  UnaryExpression(uint32_t p, UnaryOp o, NodePtr a)
      : Node(Kind::kUnaryExpression, p), op(o), argument(std::move(a)) {}
  UnaryOp op;
  NodePtr argument;
};

struct FilterExpression : Node {
  FilterExpression(uint32_t p, NodePtr o, NodePtr f)
      : Node(Kind::kFilterExpression, p), operand(std::move(o)), filter(std::move(f)) {}
  NodePtr operand;
  NodePtr filter;  // an Identifier or a CallExpression (anything else fails at render time)
};

struct TestExpression : Node {
  TestExpression(uint32_t p, NodePtr o, bool n, std::string t)
      : Node(Kind::kTestExpression, p), operand(std::move(o)), negate(n), test(std::move(t)) {}
  NodePtr operand;
  bool negate;
  std::string test;
};

struct SelectExpression : Node {
  SelectExpression(uint32_t p, NodePtr l, NodePtr t)
      : Node(Kind::kSelectExpression, p), lhs(std::move(l)), test(std::move(t)) {}
  NodePtr lhs;
  NodePtr test;
};

struct Ternary : Node {
  Ternary(uint32_t p, NodePtr c, NodePtr t, NodePtr f)
      : Node(Kind::kTernary, p),
        condition(std::move(c)),
        if_true(std::move(t)),
        if_false(std::move(f)) {}
  NodePtr condition;
  NodePtr if_true;
  NodePtr if_false;
};

struct SliceExpression : Node {  // any part may be null
  explicit SliceExpression(uint32_t p) : Node(Kind::kSliceExpression, p) {}
  NodePtr start;
  NodePtr stop;
  NodePtr step;
};

struct KeywordArgumentExpression : Node {
  KeywordArgumentExpression(uint32_t p, std::string k, NodePtr v)
      : Node(Kind::kKeywordArgumentExpression, p), key(std::move(k)), value(std::move(v)) {}
  std::string key;
  NodePtr value;
};

struct SpreadExpression : Node {  // kSpreadExpression or kKeywordSpreadExpression
  SpreadExpression(Kind k, uint32_t p, NodePtr a) : Node(k, p), argument(std::move(a)) {}
  NodePtr argument;
};

struct Comment : Node {
  explicit Comment(uint32_t p) : Node(Kind::kComment, p) {}
};

struct If : Node {
  If(uint32_t p, NodePtr t) : Node(Kind::kIf, p), test(std::move(t)) {}
  NodePtr test;
  Block body;
  Block alternate;
};

struct For : Node {
  explicit For(uint32_t p) : Node(Kind::kFor, p) {}
  NodePtr loopvar;   // an Identifier or a TupleLiteral
  NodePtr iterable;  // a SelectExpression for `for x in xs if cond`
  Block body;
  Block default_block;  // {% else %}: when no iteration completed
};

struct LoopControl : Node {  // kBreak or kContinue
  LoopControl(Kind k, uint32_t p) : Node(k, p) {}
};

struct Set : Node {
  explicit Set(uint32_t p) : Node(Kind::kSet, p) {}
  NodePtr assignee;
  NodePtr value;  // null for {% set x %}...{% endset %}
  Block body;
};

// Which of Jinja's implicit macro arguments the body reads (special_arguments.h).
struct SpecialArguments {
  bool kwargs = false;
  bool varargs = false;
};

struct Macro : Node {
  Macro(uint32_t p, std::string n) : Node(Kind::kMacro, p), name(std::move(n)) {}
  std::string name;
  std::vector<NodePtr> params;  // Identifiers and KeywordArgumentExpressions (defaults)
  Block body;
  SpecialArguments special;
};

struct CallStatement : Node {  // {% call(params) macro(args) %}body{% endcall %}
  explicit CallStatement(uint32_t p) : Node(Kind::kCallStatement, p) {}
  std::unique_ptr<CallExpression> call;
  std::vector<NodePtr> caller_params;
  Block body;
  SpecialArguments special;
};

struct FilterStatement : Node {
  FilterStatement(uint32_t p, NodePtr f) : Node(Kind::kFilterStatement, p), filter(std::move(f)) {}
  NodePtr filter;
  Block body;
};

// Calls `visit` with each child in the order @huggingface/jinja's fields list them (a null
// child, such as a slice's missing part, is skipped).
void for_each_child(const Node& node, const std::function<void(const Node&)>& visit);

// `node` as the node type its kind says it is.
template <class T>
const T& as(const Node& node) {
  return static_cast<const T&>(node);
}

}  // namespace infergate::jinja::ast
