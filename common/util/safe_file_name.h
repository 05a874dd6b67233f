// A name from an input file (a workload's name, a machine key) as one safe path component, so
// that a workload named "../../../escaped" can never make the store (or `run`) write outside
// its folder.
#pragma once

#include <string>

namespace infergate {

// Names of letters, digits, '.', '_' and '-' (not starting with '.', at most 100 characters)
// stay as they are, so existing baselines keep their paths. Anything else has every other
// character replaced by '-', leading dots by '_', is cut to 100 characters and gets "-" and 8
// hex digits of the original's hash, so two different names never share a file.
std::string safe_file_name(const std::string& name);

}  // namespace infergate
