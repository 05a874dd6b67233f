// `infergate quantize`: converts a model's matrices to a block format and writes them as GGUF,
// so the same quantized weights run in llama.cpp beside us; prints what each tensor became.
#pragma once

namespace infergate {

int quantize_command(int argc, char** argv);

}  // namespace infergate
