// A decode step padded to a fixed number of sequences, so a CUDA graph captured for that size can
// replay it (docs/cuda.md, "CUDA graphs"). The padding changes no real row: each extra sequence
// is one token that writes no KV and attends only to itself.
#pragma once

#include <cstdint>

#include "engine/forward/batch_input.h"

namespace infergate {

// True when every sequence of `batch` decodes one token (the only steps CUDA graphs replay).
bool is_decode_only(const BatchInput& batch);

// `batch` (decode-only) with sequences appended up to `size`: token 0 at position 0, KV slot -1
// (not written), a context of one position in block 0 (whatever it holds; the row is discarded),
// and its logits row last. The real sequences keep their rows and logits rows at the front.
// Throws std::invalid_argument when `batch` is not decode-only or already has more than `size`.
BatchInput pad_decode_batch(const BatchInput& batch, int64_t size);

}  // namespace infergate
