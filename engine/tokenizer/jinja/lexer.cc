#include "engine/tokenizer/jinja/lexer.h"

#include <algorithm>
#include <iterator>
#include <string_view>
#include <utility>

#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {
namespace {

// lexer.ts's ORDERED_MAPPING_TABLE: the first match wins, so "**" precedes "*" and "//" "/".
constexpr std::pair<std::string_view, TokenType> kMappingTable[] = {
    {"{%", TokenType::kOpenStatement},
    {"%}", TokenType::kCloseStatement},
    {"{{", TokenType::kOpenExpression},
    {"}}", TokenType::kCloseExpression},
    {"(", TokenType::kOpenParen},
    {")", TokenType::kCloseParen},
    {"{", TokenType::kOpenCurlyBracket},
    {"}", TokenType::kCloseCurlyBracket},
    {"[", TokenType::kOpenSquareBracket},
    {"]", TokenType::kCloseSquareBracket},
    {",", TokenType::kComma},
    {".", TokenType::kDot},
    {":", TokenType::kColon},
    {"|", TokenType::kPipe},
    {"<=", TokenType::kComparisonOperator},
    {">=", TokenType::kComparisonOperator},
    {"==", TokenType::kComparisonOperator},
    {"!=", TokenType::kComparisonOperator},
    {"<", TokenType::kComparisonOperator},
    {">", TokenType::kComparisonOperator},
    {"+", TokenType::kAdditiveOperator},
    {"-", TokenType::kAdditiveOperator},
    {"~", TokenType::kAdditiveOperator},
    {"**", TokenType::kExponentiationOperator},
    {"*", TokenType::kMultiplicativeOperator},
    {"//", TokenType::kMultiplicativeOperator},
    {"/", TokenType::kMultiplicativeOperator},
    {"%", TokenType::kMultiplicativeOperator},
    {"=", TokenType::kEquals},
};

bool is_digit(int c) { return c >= '0' && c <= '9'; }
bool is_word(int c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || is_digit(c) || c == '_';
}
int hex_digit(char c) {
  if (is_digit(c)) return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

char simple_escape(char c) {
  switch (c) {
    case 'n':
      return '\n';
    case 't':
      return '\t';
    case 'r':
      return '\r';
    case 'b':
      return '\b';
    case 'f':
      return '\f';
    case 'v':
      return '\v';
    case '\'':
    case '"':
    case '\\':
      return c;
    default:
      return 0;
  }
}

// A string literal's text, built from UTF-8 and \x / \u escapes; two escaped halves of a
// surrogate pair make one character, a half alone becomes U+FFFD.
class LiteralBuilder {
 public:
  void append(std::string_view bytes) {
    flush();
    text_ += bytes;
  }
  void append_unit(uint32_t unit) {
    if (high_ != 0 && unit >= 0xDC00 && unit <= 0xDFFF) {
      append_utf8(text_, 0x10000 + ((high_ - 0xD800) << 10) + (unit - 0xDC00));
      high_ = 0;
      return;
    }
    flush();
    if (unit >= 0xD800 && unit <= 0xDBFF) {
      high_ = unit;
    } else {
      append_utf8(text_, (unit >= 0xDC00 && unit <= 0xDFFF) ? 0xFFFD : unit);
    }
  }
  std::string finish() {
    flush();
    return std::move(text_);
  }

 private:
  void flush() {
    if (high_ != 0) append_utf8(text_, 0xFFFD);
    high_ = 0;
  }
  std::string text_;
  uint32_t high_ = 0;
};

class Lexer {
 public:
  explicit Lexer(const MappedText& source) : source_(source), src_(source.text) {}

  std::vector<Token> run() {
    while (cur_ < src_.size()) step();
    return std::move(tokens_);
  }

 private:
  int at(size_t pos) const {
    return pos < src_.size() ? static_cast<unsigned char>(src_[pos]) : -1;
  }
  bool starts(std::string_view what) const { return src_.substr(cur_, what.size()) == what; }
  uint32_t origin(size_t pos) const { return source_.origin[std::min(pos, src_.size())]; }
  [[noreturn]] void fail(const std::string& problem, size_t pos) const {
    throw SyntaxError{problem, origin(pos)};
  }
  bool last_is(TokenType type) const { return !tokens_.empty() && tokens_.back().type == type; }
  void push(TokenType type, std::string value, size_t start) {
    tokens_.push_back({type, std::move(value), origin(start)});
  }

  void step() {
    const size_t start = cur_;
    if (tokens_.empty() || last_is(TokenType::kCloseStatement) ||
        last_is(TokenType::kCloseExpression) || last_is(TokenType::kComment)) {
      if (lex_text()) return;
    }
    if (starts("{#")) return lex_comment();
    if (starts("{%-") || starts("{{-")) {
      strip_trailing_whitespace();
      const bool statement = src_[cur_ + 1] == '%';
      push(statement ? TokenType::kOpenStatement : TokenType::kOpenExpression,
           statement ? "{%" : "{{", start);
      if (!statement) curly_depth_ = 0;
      cur_ += 3;
      return;
    }
    skip_tag_whitespace();
    if (starts("-%}") || starts("-}}")) {
      const bool statement = src_[cur_ + 1] == '%';
      push(statement ? TokenType::kCloseStatement : TokenType::kCloseExpression,
           statement ? "%}" : "}}", cur_);
      cur_ += 3;
      skip_leading_whitespace();
      return;
    }
    lex_tag_token();
  }

  // Text up to the next {%, {{ or {#; false when there is none before the tag.
  bool lex_text() {
    const size_t start = cur_;
    while (cur_ < src_.size() &&
           !(src_[cur_] == '{' &&
             (at(cur_ + 1) == '%' || at(cur_ + 1) == '{' || at(cur_ + 1) == '#'))) {
      ++cur_;
    }
    if (cur_ == start) return false;
    push(TokenType::kText, std::string(src_.substr(start, cur_ - start)), start);
    return true;
  }

  void lex_comment() {
    const size_t start = cur_;
    cur_ += 2;
    const bool strip_before = at(cur_) == '-';
    if (strip_before) ++cur_;
    const size_t body = cur_;
    while (at(cur_) != '#' || at(cur_ + 1) != '}') {
      if (cur_ + 2 >= src_.size()) fail("Missing end of comment tag", start);
      ++cur_;
    }
    std::string comment(src_.substr(body, cur_ - body));
    const bool strip_after = !comment.empty() && comment.back() == '-';
    if (strip_after) comment.pop_back();
    if (strip_before) strip_trailing_whitespace();
    push(TokenType::kComment, std::move(comment), start);
    cur_ += 2;
    if (strip_after) skip_leading_whitespace();
  }

  void strip_trailing_whitespace() {
    if (!last_is(TokenType::kText)) return;
    std::string& text = tokens_.back().value;
    text.resize(js_trim_end(text).size());
    if (text.empty()) tokens_.pop_back();
  }

  void skip_leading_whitespace() {
    while (size_t size = js_space_size(src_, cur_)) cur_ += size;
  }

  // Whitespace inside a tag; running into the end of the template is an error there.
  void skip_tag_whitespace() {
    while (size_t size = js_space_size(src_, cur_)) {
      cur_ += size;
      if (cur_ >= src_.size()) fail("Unexpected end of input", cur_);
    }
  }

  void lex_tag_token() {
    const size_t start = cur_;
    const char c = src_[cur_];
    if ((c == '-' || c == '+') && lex_sign(c)) return;
    for (const auto& [sequence, type] : kMappingTable) {
      if (sequence == "}}" && curly_depth_ > 0) continue;
      if (!starts(sequence)) continue;
      push(type, std::string(sequence), start);
      if (type == TokenType::kOpenExpression) curly_depth_ = 0;
      if (type == TokenType::kOpenCurlyBracket) ++curly_depth_;
      if (type == TokenType::kCloseCurlyBracket) --curly_depth_;
      cur_ += sequence.size();
      return;
    }
    if (c == '\'' || c == '"') {
      ++cur_;
      std::string text = lex_string_body(c);
      push(TokenType::kStringLiteral, std::move(text), start);
      ++cur_;
      return;
    }
    if (is_digit(c)) {
      std::string number = consume_digits();
      if (!last_is(TokenType::kDot)) number += consume_fraction();
      push(TokenType::kNumericLiteral, std::move(number), start);
      return;
    }
    if (is_word(static_cast<unsigned char>(c))) {
      while (is_word(at(cur_))) advance();
      push(TokenType::kIdentifier, std::string(src_.substr(start, cur_ - start)), start);
      return;
    }
    fail("Unexpected character: " + std::string(src_.substr(cur_, decode_utf8(src_, cur_).size)),
         cur_);
  }

  // A '-' or '+' where no operand precedes it is unary, and joins the number after it.
  bool lex_sign(char c) {
    if (tokens_.empty() || last_is(TokenType::kText)) {
      fail(std::string("Unexpected character: ") + c, cur_);
    }
    switch (tokens_.back().type) {
      case TokenType::kIdentifier:
      case TokenType::kNumericLiteral:
      case TokenType::kStringLiteral:
      case TokenType::kCloseParen:
      case TokenType::kCloseSquareBracket:
        return false;  // a binary operator
      default:
        break;
    }
    const size_t start = cur_++;
    std::string number = consume_digits();
    if (!number.empty()) number += consume_fraction();
    push(number.empty() ? TokenType::kUnaryOperator : TokenType::kNumericLiteral, c + number,
         start);
    return true;
  }

  // One character of a token: reaching the end of the template inside a token is an error.
  void advance() {
    ++cur_;
    if (cur_ >= src_.size()) fail("Unexpected end of input", cur_);
  }

  std::string consume_digits() {
    const size_t start = cur_;
    while (is_digit(at(cur_))) advance();
    return std::string(src_.substr(start, cur_ - start));
  }

  std::string consume_fraction() {
    if (at(cur_) != '.' || !is_digit(at(cur_ + 1))) return "";
    ++cur_;
    return "." + consume_digits();
  }

  std::string lex_string_body(char quote) {
    LiteralBuilder text;
    while (true) {
      if (cur_ >= src_.size()) fail("Unexpected end of input", cur_);
      const char c = src_[cur_];
      if (c == quote) return text.finish();
      if (c == '\\') {
        lex_escape(text);
        continue;
      }
      const size_t size = decode_utf8(src_, cur_).size;
      text.append(src_.substr(cur_, size));
      cur_ += size - 1;
      advance();
    }
  }

  void lex_escape(LiteralBuilder& text) {
    ++cur_;
    if (cur_ >= src_.size()) fail("Unexpected end of input", cur_);
    const char escaped = src_[cur_++];
    if (escaped == 'x' || escaped == 'u') {
      const size_t length = escaped == 'x' ? 2 : 4;
      const std::string_view hex = src_.substr(cur_, length);
      uint32_t unit = 0;
      for (const char h : hex) unit = unit * 16 + static_cast<uint32_t>(std::max(hex_digit(h), 0));
      bool valid = hex.size() == length;
      for (const char h : hex) valid = valid && hex_digit(h) >= 0;
      if (!valid) {
        fail("Invalid hexadecimal escape sequence: \\" + std::string(1, escaped) + std::string(hex),
             cur_);
      }
      text.append_unit(unit);
      cur_ += length;
      return;
    }
    const char unescaped = simple_escape(escaped);
    if (unescaped == 0) {
      fail("Unexpected escaped character: " +
               std::string(src_.substr(cur_ - 1, decode_utf8(src_, cur_ - 1).size)),
           cur_ - 1);
    }
    text.append(std::string_view(&unescaped, 1));
  }

  const MappedText& source_;
  std::string_view src_;
  size_t cur_ = 0;
  int curly_depth_ = 0;
  std::vector<Token> tokens_;
};

}  // namespace

const char* token_type_name(TokenType type) {
  static constexpr const char* kNames[] = {"Text",
                                           "NumericLiteral",
                                           "StringLiteral",
                                           "Identifier",
                                           "Equals",
                                           "OpenParen",
                                           "CloseParen",
                                           "OpenStatement",
                                           "CloseStatement",
                                           "OpenExpression",
                                           "CloseExpression",
                                           "OpenSquareBracket",
                                           "CloseSquareBracket",
                                           "OpenCurlyBracket",
                                           "CloseCurlyBracket",
                                           "Comma",
                                           "Dot",
                                           "Colon",
                                           "Pipe",
                                           "AdditiveBinaryOperator",
                                           "MultiplicativeBinaryOperator",
                                           "ExponentiationBinaryOperator",
                                           "ComparisonBinaryOperator",
                                           "UnaryOperator",
                                           "Comment"};
  static_assert(std::size(kNames) == static_cast<size_t>(TokenType::kComment) + 1);
  return kNames[static_cast<int>(type)];
}

std::vector<Token> tokenize(const MappedText& source) { return Lexer(source).run(); }

}  // namespace infergate::jinja
