// `infergate history`: every results file stored in a database, for trends and change points
// (docs/history.md).
#pragma once

namespace infergate {

int history_command(int argc, char** argv);

}  // namespace infergate
