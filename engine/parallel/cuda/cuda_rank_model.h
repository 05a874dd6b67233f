// A rank's model on a GPU (backend "cuda" under mpirun, docs/distributed.md): each rank takes
// the GPU of its local rank on the host, the tensor-parallel group's collectives go over NCCL
// (bootstrapped over the stage's MPI group) on the forward's own stream, and pipeline stages
// pass their hidden states through host memory over MPI. Expert parallelism and CUDA graphs
// are refused at start (engine/core/cuda_limits.h).
#pragma once

namespace infergate {

// Registers the cuda rank model (engine/parallel/rank_model.h); the composition root calls it
// once in a build with CUDA and MPI.
void register_cuda_rank_model();

}  // namespace infergate
