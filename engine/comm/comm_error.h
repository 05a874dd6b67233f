// Failures of a collective. A CommError names the operation and the rank; after one, the
// communicator's peers are in an unknown state, so the caller reports and ends the job (see
// MpiSession::abort_job) rather than trying again.
#pragma once

#include <stdexcept>

namespace infergate {

// The exit status of a job ended because an operation outlived its deadline (as timeout(1)).
inline constexpr int kCommTimeoutExitCode = 124;
// The exit status of a job ended because an operation failed.
inline constexpr int kCommErrorExitCode = 3;

class CommError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The operation did not complete within CommOptions::timeout_s: a peer died, hangs or called a
// different collective.
class CommTimeoutError : public CommError {
 public:
  using CommError::CommError;
};

}  // namespace infergate
