// Tokens of a preprocessed template, as @huggingface/jinja's tokenize() makes them: text between
// tags, then the tag's own tokens; whitespace control ({%- -%} {{- -}} {#- -#}) strips text here.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/tokenizer/jinja/preprocess.h"

namespace infergate::jinja {

enum class TokenType : uint8_t {
  kText,
  kNumericLiteral,
  kStringLiteral,
  kIdentifier,
  kEquals,
  kOpenParen,
  kCloseParen,
  kOpenStatement,
  kCloseStatement,
  kOpenExpression,
  kCloseExpression,
  kOpenSquareBracket,
  kCloseSquareBracket,
  kOpenCurlyBracket,
  kCloseCurlyBracket,
  kComma,
  kDot,
  kColon,
  kPipe,
  kAdditiveOperator,        // + - ~
  kMultiplicativeOperator,  // * / // %
  kExponentiationOperator,  // **
  kComparisonOperator,      // < > <= >= == !=
  kUnaryOperator,           // a - or + that no number follows
  kComment,
};

const char* token_type_name(TokenType type);

struct Token {
  TokenType type;
  std::string value;
  uint32_t offset;  // where it starts in the template's source
};

// A syntax problem of the lexer or the parser, at a source offset.
struct SyntaxError {
  std::string problem;
  uint32_t offset;
};

// Throws SyntaxError.
std::vector<Token> tokenize(const MappedText& source);

}  // namespace infergate::jinja
