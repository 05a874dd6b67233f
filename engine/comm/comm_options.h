// Settings every Communicator takes.
#pragma once

namespace infergate {

struct CommOptions {
  // Deadline of every operation, from its call to its completion on this rank. A peer that died,
  // hangs or called another collective shows up as this deadline passing; <= 0 means none.
  // Generous by default: the first collectives also set up connections.
  double timeout_s = 30;
};

}  // namespace infergate
