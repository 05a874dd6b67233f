#include "sim/precision.h"

#include <stdexcept>

namespace infergate {

double bytes_per_element(DType dtype) {
  constexpr int64_t kCount = 1 << 16;  // a whole number of every block format's blocks
  return double(dtype_bytes(dtype, kCount)) / double(kCount);
}

namespace {

// The 16-bit dtype a GPU runs a weight-only format's GEMMs in: bf16 where it has it.
std::string sixteen_bits(const HardwareSpec& h) { return h.has_dtype("bf16") ? "bf16" : "f16"; }

}  // namespace

Precision make_precision(const std::string& weight_dtype, DType native, DType kv_dtype,
                         const HardwareSpec& hardware) {
  Precision p;
  const bool gpu = hardware.kind == "gpu";
  p.weight_dtype = weight_dtype == "auto" ? dtype_name(native) : weight_dtype;
  p.kv_bytes = bytes_per_element(kv_dtype);
  // The CPU engine keeps activations in fp32; GPU engines in 16 bits.
  p.activation_bytes = gpu ? 2 : 4;
  const std::string& w = p.weight_dtype;
  if (w == "fp8" && !gpu) {  // the CPU engine widens e4m3 to fp32 (kernels/cpu/fp8_linear.h)
    p.weight_bytes = bytes_per_element(DType::kFP8);
    p.compute_dtype = "f32";
  } else if (w == "fp8") {
    p.weight_bytes = 1;
    p.compute_dtype = "fp8";
  } else if (w == "f32" || w == "f16" || w == "bf16") {
    p.weight_bytes = bytes_per_element(parse_dtype(w));
    // A CPU without a 16-bit FMA widens 16-bit weights to fp32 in the kernel.
    p.compute_dtype = hardware.has_dtype(w) ? w : "f32";
  } else {
    p.weight_bytes = bytes_per_element(parse_dtype(w));
    const bool integer = w == "w8a8" || !gpu;
    p.compute_dtype = integer ? "int8" : sixteen_bits(hardware);
  }
  hardware.peak_flops_for(p.compute_dtype);  // throws naming what the hardware has
  return p;
}

}  // namespace infergate
