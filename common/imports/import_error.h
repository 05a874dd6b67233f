// The one error of `infergate import`: a file another load generator wrote that cannot be turned
// into an infergate results document honestly. what() names the file, the JSON path of the bad
// field and the problem ("v.json: $.ttfts[3]: -0.12 is negative"), so the user can fix or
// report the file; nothing is written when one is thrown.
#pragma once

#include <stdexcept>

namespace infergate {

class ImportError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace infergate
