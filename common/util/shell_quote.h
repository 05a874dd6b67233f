// An argument quoted for a POSIX shell, for the command lines reports and logs print.
#pragma once

#include <string>
#include <string_view>

namespace infergate {

// `text` unchanged when it is made only of safe characters, else in single quotes.
std::string shell_quote(std::string_view text);

}  // namespace infergate
