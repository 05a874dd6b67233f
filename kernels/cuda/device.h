// Whether this process can use a CUDA device at all.
#pragma once

#include <string>

namespace infergate::cuda {

// Devices visible to this process; 0 (never an exception) without a driver or GPU, with the
// reason in *why when given (CUDA's message, or "no device visible").
int cuda_device_count(std::string* why = nullptr);

}  // namespace infergate::cuda
