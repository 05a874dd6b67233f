// MPI's names for CommDType and ReduceOp. MPI has no 16-bit float types, so f16 and bf16 travel
// as 2-byte datatypes of our own with user-defined reductions (fp32 arithmetic, one rounding per
// pairwise step, as NCCL does); they are created on first use and live until MPI_Finalize.
#pragma once

#include <mpi.h>

#include "engine/comm/comm_dtype.h"
#include "engine/comm/reduce_op.h"

namespace infergate {

MPI_Datatype mpi_datatype(CommDType dtype);
MPI_Op mpi_op(ReduceOp op, CommDType dtype);

}  // namespace infergate
