// Which instruction-set level the CPU kernels use. Detected once at start-up; tests and
// benchmarks lower it to exercise the portable fallback on an AVX-512 machine.
#pragma once

namespace infergate {

// kAmx: AVX-512 plus AMX-BF16 tiles (Sapphire Rapids and later), granted by the OS.
enum class IsaLevel : int { kGeneric = 0, kAvx2 = 1, kAvx512 = 2, kAmx = 3 };

const char* isa_name(IsaLevel level);
// The best level this CPU (and OS) supports.
IsaLevel detected_isa();
// The level kernels dispatch on: detected_isa(), lowered by the environment variable
// INFERGATE_ISA=generic|avx2|avx512|amx or by set_isa_level().
IsaLevel active_isa();
// Selects min(level, detected_isa()); returns the level now active. Not thread-safe with
// concurrently running kernels: call it between kernel calls.
IsaLevel set_isa_level(IsaLevel level);

}  // namespace infergate
