#include "engine/server/model_tokenizer.h"

#include <stdexcept>

#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/gguf_tokenizer_data.h"

namespace infergate {

ModelTokenizer load_model_tokenizer(const ModelSource& source, const Vocabulary& vocab) {
  ModelTokenizer t;
  if (source.kind == "synthetic") {
    t.tokenizer = std::make_unique<ByteTokenizer>(vocab);
    return t;
  }
  if (source.kind != "gguf") {
    t.why_none = "text needs a GGUF model's tokenizer; " + source.kind + " models take token ids";
    return t;
  }
  try {
    const GgufTokenizerData data = read_gguf_tokenizer(source.path);
    t.tokenizer = make_tokenizer(data.vocab, data.add_space_prefix);
    t.add_bos = data.add_bos;
  } catch (const std::exception& e) {  // the model still serves token ids
    t.why_none = e.what();
  }
  return t;
}

}  // namespace infergate
