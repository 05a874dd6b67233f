// The message a workload document is refused with, "" when it parses: for the tables of bad
// inputs in the workload tests.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "bench/workload/workload_error.h"
#include "bench/workload/workload_parser.h"

namespace infergate {

inline std::string workload_error_of(const nlohmann::json& doc) {
  try {
    parse_workload(doc, "w.json", "");
  } catch (const WorkloadError& e) {
    return e.what();
  }
  return "";
}

}  // namespace infergate
