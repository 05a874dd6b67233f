// The option parsing every `infergate` command shares.
#pragma once

#include <boost/program_options.hpp>
#include <optional>

namespace infergate {

// Parses argv against `desc` (and positional names, if any). For --help, prints `desc` and
// returns nullopt; otherwise checks required options and returns the parsed values.
std::optional<boost::program_options::variables_map> parse_command_line(
    int argc, char** argv, const boost::program_options::options_description& desc,
    const boost::program_options::positional_options_description& positional = {});

}  // namespace infergate
