#include "cli/command_line.h"

#include <iostream>

namespace infergate {

namespace po = boost::program_options;

std::optional<po::variables_map> parse_command_line(
    int argc, char** argv, const po::options_description& desc,
    const po::positional_options_description& positional) {
  po::variables_map vm;
  po::store(po::command_line_parser(argc, argv).options(desc).positional(positional).run(), vm);
  if (vm.count("help")) {
    std::cout << desc << "\n";
    return std::nullopt;
  }
  po::notify(vm);
  return vm;
}

}  // namespace infergate
