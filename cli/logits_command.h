// `infergate logits`: prints the next-token logits at every position of a token sequence, from
// the optimized forward pass or the reference one, as JSON. Lets other engines (llama.cpp, see
// ci/interop-llama-cpp.sh) be checked against ours on the very same weights.
#pragma once

namespace infergate {

int logits_command(int argc, char** argv);

}  // namespace infergate
