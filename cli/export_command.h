// `infergate export`: writes a model as GGUF or safetensors so other engines can run the very
// same weights side by side with ours.
#pragma once

namespace infergate {

int export_command(int argc, char** argv);

}  // namespace infergate
