#include "engine/tokenizer/jinja/parser.h"

#include <cstdlib>
#include <initializer_list>
#include <string>
#include <string_view>
#include <unordered_set>

#include "engine/tokenizer/jinja/special_arguments.h"

namespace infergate::jinja {
namespace {

using ast::Kind;
using ast::NodePtr;
using TT = TokenType;

enum class ArgsMode { kCall, kParameters };

ast::BinaryOp binary_op(std::string_view op) {
  static const std::pair<std::string_view, ast::BinaryOp> kOps[] = {
      {"and", ast::BinaryOp::kAnd},      {"or", ast::BinaryOp::kOr},
      {"==", ast::BinaryOp::kEqual},     {"!=", ast::BinaryOp::kNotEqual},
      {"<", ast::BinaryOp::kLess},       {">", ast::BinaryOp::kGreater},
      {"<=", ast::BinaryOp::kLessEqual}, {">=", ast::BinaryOp::kGreaterEqual},
      {"in", ast::BinaryOp::kIn},        {"not in", ast::BinaryOp::kNotIn},
      {"+", ast::BinaryOp::kAdd},        {"-", ast::BinaryOp::kSubtract},
      {"~", ast::BinaryOp::kConcat},     {"*", ast::BinaryOp::kMultiply},
      {"/", ast::BinaryOp::kDivide},     {"//", ast::BinaryOp::kFloorDivide},
      {"%", ast::BinaryOp::kModulo},     {"**", ast::BinaryOp::kPower}};
  for (const auto& [text, value] : kOps) {
    if (text == op) return value;
  }
  return ast::BinaryOp::kAdd;  // unreachable: the lexer makes no other operator
}

class Parser {
 public:
  Parser(const std::vector<Token>& tokens, uint32_t end_offset, int max_depth)
      : tokens_(tokens), end_offset_(end_offset), max_depth_(max_depth) {}

  ast::Block parse_program() {
    ast::Block program;
    while (current_ < tokens_.size()) program.push_back(parse_any());
    return program;
  }

 private:
  // Counts the parser's own recursion, which parentheses deepen without adding nodes: one level
  // per statement, expression, call and unary operator inside another.
  class Nesting {
   public:
    explicit Nesting(Parser& parser) : parser_(parser) {
      if (++parser_.nesting_ > parser_.max_depth_) {
        parser_.fail("the template nests deeper than " + std::to_string(parser_.max_depth_) +
                     " levels (Limits::max_depth)");
      }
    }
    ~Nesting() { --parser_.nesting_; }
    Nesting(const Nesting&) = delete;
    Nesting& operator=(const Nesting&) = delete;

   private:
    Parser& parser_;
  };

  // ---- tokens

  const Token* peek(size_t ahead = 0) const {
    return current_ + ahead < tokens_.size() ? &tokens_[current_ + ahead] : nullptr;
  }
  uint32_t offset_here() const { return peek() ? peek()->offset : end_offset_; }
  [[noreturn]] void fail(const std::string& problem) const {
    throw SyntaxError{problem, offset_here()};
  }
  [[noreturn]] void fail_at(const std::string& problem, uint32_t offset) const {
    throw SyntaxError{problem, offset};
  }

  bool is(TT type) const { return peek() && peek()->type == type; }
  bool is_identifier(std::string_view name, size_t ahead = 0) const {
    const Token* token = peek(ahead);
    return token && token->type == TT::kIdentifier && token->value == name;
  }
  bool is_statement(std::initializer_list<std::string_view> names) const {
    if (!is(TT::kOpenStatement) || !peek(1) || peek(1)->type != TT::kIdentifier) return false;
    for (const std::string_view name : names) {
      if (peek(1)->value == name) return true;
    }
    return false;
  }

  const Token& expect(TT type, const std::string& error) {
    const Token* token = peek();
    if (!token || token->type != type) {
      fail(error + " (got " + (token ? token_type_name(token->type) : "the end of the template") +
           ")");
    }
    ++current_;
    return *token;
  }
  void expect_identifier(std::string_view name) {
    if (!is_identifier(name)) fail("Expected " + std::string(name));
    ++current_;
  }
  void expect_end_tag(std::string_view name) {
    expect(TT::kOpenStatement, "Expected {% token");
    expect_identifier(name);
    expect(TT::kCloseStatement, "Expected %} token");
  }
  const Token& next(const char* what) {
    if (!peek()) fail(std::string("Unexpected end of template, expected ") + what);
    return tokens_[current_++];
  }

  // Statements until one of `names` opens a tag.
  ast::Block parse_until(std::initializer_list<std::string_view> names, const char* what) {
    ast::Block block;
    while (!is_statement(names)) {
      if (!peek()) fail(std::string("Unexpected end of template, expected ") + what);
      block.push_back(parse_any());
    }
    return block;
  }

  // ---- nodes: a node's depth is known once its children are; too deep is a syntax error.

  template <class T>
  std::unique_ptr<T> seal(std::unique_ptr<T> node) {
    int deepest = 0;
    ast::for_each_child(*node,
                        [&](const ast::Node& child) { deepest = std::max(deepest, child.depth); });
    node->depth = deepest + 1;
    if (node->depth > max_depth_) {
      fail_at("the template nests deeper than " + std::to_string(max_depth_) +
                  " levels (Limits::max_depth)",
              node->offset);
    }
    return node;
  }
  template <class T, class... Args>
  std::unique_ptr<T> make(uint32_t pos, Args&&... args) {
    return seal(std::make_unique<T>(pos, std::forward<Args>(args)...));
  }
  template <class T, class... Args>
  std::unique_ptr<T> make_kind(Kind kind, uint32_t pos, Args&&... args) {
    return seal(std::make_unique<T>(kind, pos, std::forward<Args>(args)...));
  }
  static uint32_t at(const Token& token) { return token.offset; }

  // ---- statements

  NodePtr parse_any() {
    Nesting nesting(*this);
    const Token& token = *peek();
    switch (token.type) {
      case TT::kComment:
        ++current_;
        return make<ast::Comment>(at(token));
      case TT::kText:
        ++current_;
        return make<ast::StringLiteral>(at(token), token.value);
      case TT::kOpenStatement:
        return parse_statement();
      case TT::kOpenExpression: {
        ++current_;
        NodePtr result = parse_expression();
        expect(TT::kCloseExpression, "Expected closing expression token");
        return result;
      }
      default:
        fail(std::string("Unexpected token type: ") + token_type_name(token.type));
    }
  }

  NodePtr parse_statement() {
    expect(TT::kOpenStatement, "Expected opening statement token");
    if (!is(TT::kIdentifier)) {
      fail(std::string("Unknown statement, got ") +
           (peek() ? token_type_name(peek()->type) : "the end of the template"));
    }
    const Token& name = tokens_[current_++];
    if (name.value == "set") return parse_set(at(name));
    if (name.value == "if") {
      NodePtr result = parse_if(at(name));
      expect_end_tag("endif");
      return result;
    }
    if (name.value == "macro") {
      NodePtr result = parse_macro(at(name));
      expect_end_tag("endmacro");
      return result;
    }
    if (name.value == "for") {
      NodePtr result = parse_for(at(name));
      expect_end_tag("endfor");
      return result;
    }
    if (name.value == "call") return parse_call_statement(at(name));
    if (name.value == "break" || name.value == "continue") {
      expect(TT::kCloseStatement, "Expected closing statement token");
      return make_kind<ast::LoopControl>(name.value == "break" ? Kind::kBreak : Kind::kContinue,
                                         at(name));
    }
    if (name.value == "filter") return parse_filter_statement(at(name));
    fail_at("Unknown statement type: " + name.value, at(name));
  }

  NodePtr parse_set(uint32_t pos) {
    auto set = std::make_unique<ast::Set>(pos);
    set->assignee = parse_expression_sequence(false);
    if (is(TT::kEquals)) {
      ++current_;
      set->value = parse_expression_sequence(false);
    } else {
      expect(TT::kCloseStatement, "Expected %} token");
      set->body = parse_until({"endset"}, "{% endset %}");
      expect(TT::kOpenStatement, "Expected {% token");
      expect_identifier("endset");
    }
    expect(TT::kCloseStatement, "Expected closing statement token");
    return seal(std::move(set));
  }

  NodePtr parse_if(uint32_t pos) {
    auto node = std::make_unique<ast::If>(pos, parse_expression());
    expect(TT::kCloseStatement, "Expected closing statement token");
    node->body = parse_until({"elif", "else", "endif"}, "{% endif %}");
    if (is_statement({"elif"})) {
      const uint32_t elif = at(*peek(1));
      current_ += 2;
      node->alternate.push_back(parse_if(elif));
    } else if (is_statement({"else"})) {
      current_ += 2;
      expect(TT::kCloseStatement, "Expected closing statement token");
      node->alternate = parse_until({"endif"}, "{% endif %}");
    }
    return seal(std::move(node));
  }

  NodePtr parse_macro(uint32_t pos) {
    NodePtr name = parse_primary();
    if (name->kind != Kind::kIdentifier)
      fail_at("Expected identifier following macro statement", name->offset);
    auto macro = std::make_unique<ast::Macro>(pos, static_cast<ast::Identifier&>(*name).name);
    macro->params = parse_args(ArgsMode::kParameters);
    expect(TT::kCloseStatement, "Expected closing statement token");
    macro->body = parse_until({"endmacro"}, "{% endmacro %}");
    macro->special = find_special_arguments(macro->params, macro->body);
    return seal(std::move(macro));
  }

  NodePtr parse_for(uint32_t pos) {
    auto loop = std::make_unique<ast::For>(pos);
    loop->loopvar = parse_expression_sequence(true);
    if (loop->loopvar->kind != Kind::kIdentifier && loop->loopvar->kind != Kind::kTupleLiteral) {
      fail_at(std::string("Expected identifier/tuple for the loop variable, got ") +
                  ast::kind_name(loop->loopvar->kind) + " instead",
              loop->loopvar->offset);
    }
    if (!is_identifier("in")) fail("Expected `in` keyword following loop variable");
    ++current_;
    loop->iterable = parse_expression();
    expect(TT::kCloseStatement, "Expected closing statement token");
    loop->body = parse_until({"endfor", "else"}, "{% endfor %}");
    if (is_statement({"else"})) {
      current_ += 2;
      expect(TT::kCloseStatement, "Expected closing statement token");
      loop->default_block = parse_until({"endfor"}, "{% endfor %}");
    }
    return seal(std::move(loop));
  }

  NodePtr parse_call_statement(uint32_t pos) {
    auto node = std::make_unique<ast::CallStatement>(pos);
    if (is(TT::kOpenParen)) node->caller_params = parse_args(ArgsMode::kParameters);
    NodePtr callee = parse_primary();
    if (callee->kind != Kind::kIdentifier)
      fail_at("Expected identifier following call statement", callee->offset);
    const uint32_t call_pos = callee->offset;
    std::vector<NodePtr> args = parse_args(ArgsMode::kCall);
    expect(TT::kCloseStatement, "Expected closing statement token");
    node->body = parse_until({"endcall"}, "{% endcall %}");
    expect_end_tag("endcall");
    node->call = make<ast::CallExpression>(call_pos, std::move(callee), std::move(args));
    node->special = find_special_arguments(node->caller_params, node->body);
    return seal(std::move(node));
  }

  NodePtr parse_filter_statement(uint32_t pos) {
    NodePtr filter = parse_primary();
    if (filter->kind == Kind::kIdentifier && is(TT::kOpenParen))
      filter = parse_call(std::move(filter));
    expect(TT::kCloseStatement, "Expected closing statement token");
    auto node = std::make_unique<ast::FilterStatement>(pos, std::move(filter));
    node->body = parse_until({"endfilter"}, "{% endfilter %}");
    expect_end_tag("endfilter");
    return seal(std::move(node));
  }

  // ---- expressions, lowest precedence first

  NodePtr parse_expression_sequence(bool primary) {
    NodePtr first = primary ? parse_primary() : parse_expression();
    if (!is(TT::kComma)) return first;
    auto tuple = std::make_unique<ast::ListLiteral>(Kind::kTupleLiteral, first->offset);
    tuple->items.push_back(std::move(first));
    while (true) {
      ++current_;
      tuple->items.push_back(primary ? parse_primary() : parse_expression());
      if (!is(TT::kComma)) break;
    }
    return seal(std::move(tuple));
  }

  NodePtr parse_expression() {
    Nesting nesting(*this);
    NodePtr a = parse_or();
    if (!is_identifier("if")) return a;
    const uint32_t pos = at(*peek());
    ++current_;
    NodePtr test = parse_or();
    if (is_identifier("else")) {
      ++current_;
      NodePtr otherwise = parse_expression();
      return make<ast::Ternary>(pos, std::move(test), std::move(a), std::move(otherwise));
    }
    return make<ast::SelectExpression>(pos, std::move(a), std::move(test));
  }

  NodePtr binary(const Token& op, std::string text, NodePtr left, NodePtr right) {
    const ast::BinaryOp value = binary_op(text);
    return make<ast::BinaryExpression>(at(op), value, std::move(text), std::move(left),
                                       std::move(right));
  }

  NodePtr parse_or() {
    NodePtr left = parse_and();
    while (is_identifier("or")) {
      const Token& op = tokens_[current_++];
      left = binary(op, op.value, std::move(left), parse_and());
    }
    return left;
  }

  NodePtr parse_and() {
    NodePtr left = parse_not();
    while (is_identifier("and")) {
      const Token& op = tokens_[current_++];
      left = binary(op, op.value, std::move(left), parse_not());
    }
    return left;
  }

  NodePtr parse_not() {
    NodePtr result;
    while (is_identifier("not")) {
      Nesting nesting(*this);
      const Token& op = tokens_[current_++];
      result = make<ast::UnaryExpression>(at(op), ast::UnaryOp::kNot, parse_not());
    }
    return result ? std::move(result) : parse_comparison();
  }

  NodePtr parse_comparison() {
    NodePtr left = parse_additive();
    while (true) {
      const Token* op = peek();
      std::string text;
      if (is_identifier("not") && is_identifier("in", 1)) {
        text = "not in";
        current_ += 2;
      } else if (is_identifier("in") || is(TT::kComparisonOperator)) {
        text = op->value;
        ++current_;
      } else {
        return left;
      }
      left = binary(*op, text, std::move(left), parse_additive());
    }
  }

  NodePtr parse_additive() {
    NodePtr left = parse_multiplicative();
    while (is(TT::kAdditiveOperator)) {
      const Token& op = tokens_[current_++];
      left = binary(op, op.value, std::move(left), parse_multiplicative());
    }
    return left;
  }

  NodePtr parse_multiplicative() {
    NodePtr left = parse_power();
    while (is(TT::kMultiplicativeOperator)) {
      const Token& op = tokens_[current_++];
      left = binary(op, op.value, std::move(left), parse_power());
    }
    return left;
  }

  // Left-associative, as Jinja's: 2 ** 3 ** 2 == (2 ** 3) ** 2.
  NodePtr parse_power() {
    NodePtr left = parse_test();
    while (is(TT::kExponentiationOperator)) {
      const Token& op = tokens_[current_++];
      left = binary(op, op.value, std::move(left), parse_test());
    }
    return left;
  }

  NodePtr parse_test() {
    NodePtr operand = parse_filter();
    while (is_identifier("is")) {
      const uint32_t pos = at(*peek());
      ++current_;
      const bool negate = is_identifier("not");
      if (negate) ++current_;
      NodePtr test = parse_primary();
      if (test->kind != Kind::kIdentifier)
        fail_at("Expected identifier for the test", test->offset);
      operand = make<ast::TestExpression>(pos, std::move(operand), negate,
                                          static_cast<ast::Identifier&>(*test).name);
    }
    return operand;
  }

  NodePtr parse_filter() {
    NodePtr operand = parse_unary_sign();
    while (is(TT::kPipe)) {
      ++current_;
      NodePtr filter = parse_primary();
      if (filter->kind != Kind::kIdentifier)
        fail_at("Expected identifier for the filter", filter->offset);
      const uint32_t pos = filter->offset;
      if (is(TT::kOpenParen)) filter = parse_call(std::move(filter));
      operand = make<ast::FilterExpression>(pos, std::move(operand), std::move(filter));
    }
    return operand;
  }

  NodePtr parse_unary_sign() {
    const Token* token = peek();
    if (token && (token->type == TT::kUnaryOperator || token->type == TT::kAdditiveOperator) &&
        (token->value == "-" || token->value == "+")) {
      Nesting nesting(*this);
      ++current_;
      const ast::UnaryOp op = token->value == "-" ? ast::UnaryOp::kMinus : ast::UnaryOp::kPlus;
      return make<ast::UnaryExpression>(at(*token), op, parse_unary_sign());
    }
    NodePtr member = parse_member(parse_primary());
    return is(TT::kOpenParen) ? parse_call(std::move(member)) : std::move(member);
  }

  NodePtr parse_call(NodePtr callee) {
    Nesting nesting(*this);
    const uint32_t pos = callee->offset;
    std::vector<NodePtr> args = parse_args(ArgsMode::kCall);
    NodePtr call = parse_member(make<ast::CallExpression>(pos, std::move(callee), std::move(args)));
    return is(TT::kOpenParen) ? parse_call(std::move(call)) : std::move(call);
  }

  std::vector<NodePtr> parse_args(ArgsMode mode) {
    expect(TT::kOpenParen, "Expected opening parenthesis for arguments list");
    std::vector<NodePtr> args = parse_argument_list(mode);
    expect(TT::kCloseParen, "Expected closing parenthesis for arguments list");
    return args;
  }

  std::vector<NodePtr> parse_argument_list(ArgsMode mode) {
    std::vector<NodePtr> args;
    std::unordered_set<std::string> names;
    bool saw_keyword = false;
    bool saw_spread = false;
    while (!is(TT::kCloseParen)) {
      if (!peek()) fail("Unexpected end of template, expected )");
      const bool keyword_spread = is(TT::kExponentiationOperator);
      const bool spread = is(TT::kMultiplicativeOperator) && peek()->value == "*";
      if (mode == ArgsMode::kParameters && (keyword_spread || spread)) {
        fail("Argument unpacking is not allowed in parameter declarations");
      }
      const uint32_t pos = at(*peek());
      if (keyword_spread) {
        ++current_;
        args.push_back(make_kind<ast::SpreadExpression>(Kind::kKeywordSpreadExpression, pos,
                                                        parse_expression()));
        if (is(TT::kComma)) ++current_;
        if (!is(TT::kCloseParen))
          fail("Expected closing parenthesis: `**` must be applied to the final argument");
        break;
      }
      NodePtr argument;
      if (spread) {
        if (saw_spread) fail("Only one `*` argument unpacking is allowed");
        saw_spread = true;
        ++current_;
        argument =
            make_kind<ast::SpreadExpression>(Kind::kSpreadExpression, pos, parse_expression());
      } else {
        argument = parse_keyword_or_expression(mode);
        check_argument_order(mode, *argument, names, saw_keyword, saw_spread);
      }
      args.push_back(std::move(argument));
      if (is(TT::kComma)) ++current_;
    }
    return args;
  }

  NodePtr parse_keyword_or_expression(ArgsMode mode) {
    NodePtr argument = parse_expression();
    if (!is(TT::kEquals)) return argument;
    ++current_;
    if (argument->kind != Kind::kIdentifier) {
      fail_at(mode == ArgsMode::kParameters ? "Expected identifier for parameter declaration"
                                            : "Expected identifier for keyword argument",
              argument->offset);
    }
    const uint32_t pos = argument->offset;
    std::string key = static_cast<ast::Identifier&>(*argument).name;
    return make<ast::KeywordArgumentExpression>(pos, std::move(key), parse_expression());
  }

  void check_argument_order(ArgsMode mode, const ast::Node& argument,
                            std::unordered_set<std::string>& names, bool& saw_keyword,
                            bool saw_spread) const {
    const bool keyword = argument.kind == Kind::kKeywordArgumentExpression;
    if (mode == ArgsMode::kParameters) {
      if (!keyword && argument.kind != Kind::kIdentifier) {
        fail_at("Expected identifier for parameter declaration", argument.offset);
      }
      const std::string& name = *parameter_of(argument).name;
      if (!names.insert(name).second) fail_at("Duplicate parameter name: " + name, argument.offset);
    }
    if (keyword) {
      saw_keyword = true;
    } else if (saw_keyword) {
      fail_at(mode == ArgsMode::kCall ? "Positional arguments must come before keyword arguments"
                                      : "Non-default argument follows default argument",
              argument.offset);
    } else if (saw_spread) {
      fail_at("Positional arguments must not follow `*` argument unpacking", argument.offset);
    }
  }

  // What follows '[': a subscript, or a slice of up to three colon-separated parts.
  NodePtr parse_subscript() {
    const uint32_t pos = offset_here();
    std::vector<NodePtr> parts;
    bool is_slice = false;
    while (!is(TT::kCloseSquareBracket)) {
      if (!peek()) fail("Unexpected end of template, expected ]");
      if (is(TT::kColon)) {
        parts.push_back(nullptr);
        ++current_;
        is_slice = true;
        continue;
      }
      parts.push_back(parse_expression());
      if (is(TT::kColon)) {
        ++current_;
        is_slice = true;
      }
    }
    if (parts.empty()) fail("Expected at least one argument for member/slice expression");
    if (!is_slice) return std::move(parts[0]);
    if (parts.size() > 3) fail("Expected 0-3 arguments for slice expression");
    auto slice = std::make_unique<ast::SliceExpression>(pos);
    parts.resize(3);
    slice->start = std::move(parts[0]);
    slice->stop = std::move(parts[1]);
    slice->step = std::move(parts[2]);
    return seal(std::move(slice));
  }

  NodePtr parse_member(NodePtr object) {
    while (is(TT::kDot) || is(TT::kOpenSquareBracket)) {
      const Token& op = tokens_[current_++];
      const bool computed = op.type == TT::kOpenSquareBracket;
      NodePtr property;
      if (computed) {
        property = parse_subscript();
        expect(TT::kCloseSquareBracket, "Expected closing square bracket");
      } else {
        property = parse_primary();
        if (property->kind != Kind::kIdentifier && property->kind != Kind::kIntegerLiteral) {
          fail_at("Expected identifier or integer following dot operator", property->offset);
        }
      }
      const uint32_t start = object->offset;
      object = make<ast::MemberExpression>(start, std::move(object), std::move(property), computed);
    }
    return object;
  }

  NodePtr parse_primary() {
    const Token& token = next("an expression");
    switch (token.type) {
      case TT::kNumericLiteral: {
        const bool is_float = token.value.find('.') != std::string::npos;
        return make_kind<ast::NumericLiteral>(
            is_float ? Kind::kFloatLiteral : Kind::kIntegerLiteral, at(token),
            std::strtod(token.value.c_str(), nullptr));
      }
      case TT::kStringLiteral: {
        std::string value = token.value;
        while (is(TT::kStringLiteral)) value += tokens_[current_++].value;
        return make<ast::StringLiteral>(at(token), std::move(value));
      }
      case TT::kIdentifier:
        return make<ast::Identifier>(at(token), token.value);
      case TT::kOpenParen: {
        NodePtr expression = parse_expression_sequence(false);
        expect(TT::kCloseParen, "Expected closing parenthesis");
        return expression;
      }
      case TT::kOpenSquareBracket:
        return parse_array_literal(at(token));
      case TT::kOpenCurlyBracket:
        return parse_object_literal(at(token));
      default:
        fail_at(std::string("Unexpected token: ") + token_type_name(token.type), at(token));
    }
  }

  // Commas between items are optional, as in @huggingface/jinja.
  NodePtr parse_array_literal(uint32_t pos) {
    auto array = std::make_unique<ast::ListLiteral>(Kind::kArrayLiteral, pos);
    while (!is(TT::kCloseSquareBracket)) {
      if (!peek()) fail("Unexpected end of template, expected ]");
      array->items.push_back(parse_expression());
      if (is(TT::kComma)) ++current_;
    }
    ++current_;
    return seal(std::move(array));
  }

  NodePtr parse_object_literal(uint32_t pos) {
    auto object = std::make_unique<ast::ObjectLiteral>(pos);
    while (!is(TT::kCloseCurlyBracket)) {
      if (!peek()) fail("Unexpected end of template, expected }");
      NodePtr key = parse_expression();
      expect(TT::kColon, "Expected colon between key and value in object literal");
      NodePtr value = parse_expression();
      object->entries.emplace_back(std::move(key), std::move(value));
      if (is(TT::kComma)) ++current_;
    }
    ++current_;
    return seal(std::move(object));
  }

  const std::vector<Token>& tokens_;
  uint32_t end_offset_;
  int max_depth_;
  size_t current_ = 0;
  int nesting_ = 0;
};

}  // namespace

ast::Block parse(const std::vector<Token>& tokens, uint32_t end_offset, int max_depth) {
  return Parser(tokens, end_offset, max_depth).parse_program();
}

}  // namespace infergate::jinja
