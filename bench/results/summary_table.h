// The table `infergate run` prints at the end: the six headline numbers (and a few more) for
// every sweep point, read back from the results document itself.
#pragma once

#include <nlohmann/json.hpp>
#include <ostream>

namespace infergate {

void print_summary_table(std::ostream& out, const nlohmann::json& results);

}  // namespace infergate
