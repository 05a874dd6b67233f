// `infergate eval`: a model's quality against a baseline on a text file: perplexity, the KL
// divergence of next-token distributions and top-1 agreement, as llama.cpp's
// `llama-perplexity --kl-divergence` defines them (docs/metrics.md, "Quality"). The baseline
// defaults to the same model unquantized (f32), so `--dtype q4_0` measures what Q4_0 costs.
#pragma once

namespace infergate {

int eval_command(int argc, char** argv);

}  // namespace infergate
