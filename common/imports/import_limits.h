// Bounds on what an import reads, checked before anything is allocated for it: the results files
// of other tools are untrusted input, and a real one is far below each of these.
#pragma once

#include <cstdint>

#include "common/io/input_file.h"

namespace infergate {

// The whole file, as for our own results files (docs/results-schema.md, "Reading results back").
inline constexpr uint64_t kMaxImportFileBytes = kMaxJsonFileBytes;
// Entries of any one JSON array (vLLM's per-request arrays, GuideLLM's request lists), and
// lines of a JSON Lines file (AIPerf's records).
inline constexpr uint64_t kMaxImportArrayEntries = 10'000'000;
// Values of the whole file (all lines of JSON Lines together): each becomes a node of 16 bytes
// and more once parsed, so this caps the parsed document at a few GiB whatever its shape.
inline constexpr uint64_t kMaxImportValues = 40'000'000;

}  // namespace infergate
