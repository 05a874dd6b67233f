// An evaluation text as token ids, cut by the model's own tokenizer (as generate and serve build
// it): what `infergate eval` and a workload's quality section score.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/model/model_loader.h"

namespace infergate {

// Evaluation texts are read whole: a few MB of text is hours of CPU evaluation already.
inline constexpr uint64_t kMaxQualityTextBytes = uint64_t(64) << 20;

// Throws std::invalid_argument when the model has no text tokenizer, InputFileError when the
// file is missing, not a regular file or above kMaxQualityTextBytes.
std::vector<int32_t> tokenize_quality_text(const std::string& path, const ModelSource& source,
                                           const Vocabulary& vocab);

}  // namespace infergate
