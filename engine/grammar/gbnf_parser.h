// GBNF, llama.cpp's grammar notation, parsed into a byte-level Grammar:
//   root ::= "{" ws pair ("," ws pair)* "}"     # comments run to the end of the line
//   pair ::= [a-z]+ ":" ws ( "true" | "false" | [0-9]{1,5} )
//   ws   ::= [ \t\n]*
// Literals "..." and classes [...] / [^...] with escapes \n \r \t \\ \" \[ \] \xHH \uHHHH
// \UHHHHHHHH; `.` is any character; groups ( ); postfix * + ? {m} {m,} {m,n}. A rule ends
// where the next `name ::=` begins. Characters are Unicode code points, matched as UTF-8.
#pragma once

#include <string_view>

#include "engine/grammar/grammar.h"

namespace infergate {

// The grammar whose start is the rule named `root`. Throws GrammarError naming the line and
// column of bad syntax, an undefined rule, a left-recursive rule, or a size over Grammar's
// limits.
Grammar parse_gbnf(std::string_view text, std::string_view root = "root");

}  // namespace infergate
