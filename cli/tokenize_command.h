// `infergate tokenize`: the ids (and pieces) a model's own tokenizer makes of a text, as
// llama.cpp's llama-tokenize prints them, for debugging a token-count mismatch between a client
// and a server (docs/model-formats.md, "Tokenizers and chat templates").
#pragma once

namespace infergate {

int tokenize_command(int argc, char** argv);

}  // namespace infergate
