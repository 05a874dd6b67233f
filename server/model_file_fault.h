// Model weights are memory-mapped, not copied. Truncating or rewriting a served model file in
// place takes those pages away, and the next request that reads them gets SIGBUS. This turns
// that crash into one line naming the file, and the same exit status a SIGBUS death gives
// (kModelFileFaultExit), so whatever watched for the crash still sees it (docs/server.md).
#pragma once

#include <string>

namespace infergate {

inline constexpr int kModelFileFaultExit = 135;  // 128 + SIGBUS

// Installs the SIGBUS handler for the model at `path` (a GGUF file, or a safetensors directory:
// every file under it), after it is loaded: the handler knows the mappings /proc/self/maps shows
// for it then. A SIGBUS anywhere else still kills the process as before. Returns how many
// mappings it found (none: the weights were copied, nothing to guard).
int exit_clearly_on_model_file_fault(const std::string& path);

}  // namespace infergate
