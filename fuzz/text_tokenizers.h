// Small text tokenizers of each kind the server can serve text with, for the fuzz targets:
// byte-level (the built-in synthetic models), SentencePiece-style (GGUF "llama") and GPT-2
// byte-level BPE (GGUF "gpt2"). Each has a few merges, so text takes the merging paths too.
#pragma once

#include "engine/tokenizer/tokenizer.h"

namespace infergate::fuzz {

const Tokenizer& byte_tokenizer();  // synthetic_vocabulary(300), as `infergate serve` has it
const Tokenizer& spm_tokenizer();
const Tokenizer& bpe_tokenizer();
// A GPT-2 vocabulary with tokens for printable ASCII only (33..126), as a GGUF file may have:
// BPE drops the characters it cannot spell (as llama.cpp does), so text can become no tokens.
const Tokenizer& partial_bpe_tokenizer();

}  // namespace infergate::fuzz
