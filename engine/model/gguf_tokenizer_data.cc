#include "engine/model/gguf_tokenizer_data.h"

#include "engine/model/gguf_file.h"
#include "engine/model/gguf_vocab.h"
#include "engine/model/mapped_file.h"
#include "engine/model/model_load_error.h"

namespace infergate {

GgufTokenizerData read_gguf_tokenizer(const std::string& path) {
  const GgufFile g = GgufFile::parse(MappedFile::open(path));
  GgufTokenizerData data;
  data.vocab = read_gguf_vocab(g);
  const bool spm = data.vocab.model == "llama";
  data.pre = g.get_string("tokenizer.ggml.pre", "");
  data.add_bos = g.get_bool("tokenizer.ggml.add_bos_token", spm);
  data.add_space_prefix = g.get_bool("tokenizer.ggml.add_space_prefix", true);
  return data;
}

}  // namespace infergate
