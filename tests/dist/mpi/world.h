// A fresh communicator over all ranks for one test case, with a deadline short enough that a
// test whose ranks disagree ends in seconds, not a hang.
#pragma once

#include "engine/comm/mpi_communicator.h"

namespace infergate::test {

inline MpiCommunicator world() { return MpiCommunicator(CommOptions{20}); }

}  // namespace infergate::test
