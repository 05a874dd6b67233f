// A results file that cannot be used; the message names the file and the JSON path.
#pragma once

#include <stdexcept>

namespace infergate {

class ResultsError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace infergate
