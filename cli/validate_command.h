// `infergate validate FILE...`: check workload files without running anything.
#pragma once

namespace infergate {

// Exit 0 when every file is valid, 2 otherwise (each error printed as the file, the JSON path,
// the value and what is allowed).
int validate_command(int argc, char** argv);

}  // namespace infergate
