// A step's batch cut into micro-batches for the pipeline (GPipe within a step): contiguous runs
// of sequences with about equal token counts, so stage s works on micro-batch m while stage s+1
// works on m-1. Logit rows stay in schedule order across the micro-batches.
#pragma once

#include <vector>

#include "engine/forward/batch_input.h"

namespace infergate {

// At most `count` non-empty micro-batches (fewer when the batch has fewer sequences). Their
// sequences point into `batch`'s block tables: `batch` must outlive them.
std::vector<BatchInput> split_micro_batches(const BatchInput& batch, int count);

}  // namespace infergate
