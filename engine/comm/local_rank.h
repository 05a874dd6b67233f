// This rank's index among the ranks of `comm` on the same host, and how many share it: which
// GPU a rank takes. Found by gathering host-name hashes, so it needs no launcher-specific
// environment variable. Collective; needs host buffers (an MpiCommunicator).
#pragma once

#include "engine/comm/communicator.h"

namespace infergate {

struct LocalRank {
  int rank = 0;  // 0 .. size - 1, in the order of the communicator's ranks
  int size = 1;  // ranks on this host
};

LocalRank local_rank(Communicator& comm);

}  // namespace infergate
