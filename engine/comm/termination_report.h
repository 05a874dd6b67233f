// When one rank dies, mpirun ends the whole job (its default) by sending SIGTERM to the others,
// which are then typically blocked in a collective waiting for the dead one. This handler makes
// each survivor say so on stderr, naming its rank and the operation it was waiting in
// (in_flight_op.h), before it dies of SIGTERM as it would have. mpirun's own message names
// the rank that failed first.
#pragma once

namespace infergate {

// Installs the SIGTERM handler unless a program already handles SIGTERM itself (e.g. `infergate
// run`'s graceful stop). Returns whether it was installed.
bool install_termination_report(int rank, int size);

}  // namespace infergate
