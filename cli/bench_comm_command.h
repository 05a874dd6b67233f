// `infergate bench-comm`: the collectives benchmark (nccl-tests' shape) over the engine's
// communicators. Run it under mpirun: `mpirun -np 4 infergate bench-comm --json comm.json`.
// Rank 0 prints the table and writes the results file (docs/distributed.md).
#pragma once

namespace infergate {

int bench_comm_command(int argc, char** argv);

}  // namespace infergate
