#include "engine/model/gguf_tokenizer_data.h"

#include <stdexcept>

#include "engine/model/gguf_file.h"
#include "engine/model/gguf_vocab.h"
#include "engine/model/mapped_file.h"
#include "engine/model/model_load_error.h"
#include "engine/tokenizer/gguf_pre_tokenizers.h"

namespace infergate {

GgufTokenizerData read_gguf_tokenizer(const std::string& path) {
  const GgufFile g = GgufFile::parse(MappedFile::open(path));
  GgufTokenizerData data;
  data.vocab = read_gguf_vocab(g);
  const bool spm = data.vocab.model == "llama";
  data.pre = data.vocab.pre;
  bool bos_by_default = spm;  // llama.cpp's defaults when the file does not say
  if (!spm) {
    try {
      bos_by_default = gguf_pre_tokenizer(data.pre).default_add_bos;
    } catch (const std::invalid_argument&) {
      // An unknown pre-tokenizer is refused when the tokenizer is made, with its name.
    }
  }
  data.add_bos = data.vocab.add_bos.value_or(bos_by_default);
  data.chat_template = data.vocab.chat_template;
  data.add_space_prefix = data.vocab.add_space_prefix.value_or(true);
  return data;
}

}  // namespace infergate
