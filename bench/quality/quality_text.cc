#include "bench/quality/quality_text.h"

#include <iostream>
#include <stdexcept>

#include "common/io/input_file.h"
#include "engine/model/model_tokenizer.h"

namespace infergate {

std::vector<int32_t> tokenize_quality_text(const std::string& path, const ModelSource& source,
                                           const Vocabulary& vocab) {
  const std::string text = read_regular_file(path, kMaxQualityTextBytes);
  const ModelTokenizer t = load_model_tokenizer(source, vocab);
  std::cerr << "tokenizer: " + t.description + "\n";
  if (!t.tokenizer) {
    throw std::invalid_argument(path + ": the model has no text tokenizer (" + t.description + ")");
  }
  return t.tokenizer->encode(text, /*add_bos=*/false);
}

}  // namespace infergate
