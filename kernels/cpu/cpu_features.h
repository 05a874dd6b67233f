// Which instruction-set level the CPU kernels use. Detected once at start-up; tests and
// benchmarks lower it to exercise the portable fallback on an AVX-512 machine.
#pragma once

namespace infergate {

// kAmx: AVX-512 plus AMX-BF16 tiles (Sapphire Rapids and later), granted by the OS.
// kNeon: aarch64's Advanced SIMD (baseline there), declared in aarch64 builds only, so x86
// builds and their switches over the levels are unchanged. The levels
// are two ladders that share kGeneric: generic < avx2 < avx512 < amx on x86-64, generic < neon
// on aarch64. kNeon sorts below kGeneric so that every `level >= IsaLevel::kAvx2`-style test,
// which asks for an x86 level, is false on aarch64; it is not "below" generic (set_isa_level).
enum class IsaLevel : int {
  kGeneric = 0,
  kAvx2 = 1,
  kAvx512 = 2,
  kAmx = 3,
#if defined(__aarch64__)
  kNeon = -1,
#endif
};

const char* isa_name(IsaLevel level);
// The best level this CPU (and OS) supports.
IsaLevel detected_isa();
// The level kernels dispatch on: detected_isa(), lowered by the environment variable
// INFERGATE_ISA=generic|avx2|avx512|amx|neon or by set_isa_level().
IsaLevel active_isa();
// Whether the CPU has AVX512_VNNI (vpdpbusd), which the quantized kernels use at the avx512
// and amx levels when present (Cascade Lake, Ice Lake, Zen 4 and later).
bool cpu_has_avx512_vnni();
// Whether the CPU has AVX512_VBMI (vpermi2b), which the fp8 kernels use at the avx512 and amx
// levels when present (Ice Lake, Sapphire Rapids, Zen 4 and later).
bool cpu_has_avx512_vbmi();
// Whether the CPU has AVX512_BF16 (vdpbf16ps), which the fp8 kernels use with VBMI at the
// avx512 and amx levels when present (Cooper Lake, Sapphire Rapids, Zen 4 and later).
bool cpu_has_avx512_bf16();
// Whether the CPU has aarch64's dot-product extension (sdot; HWCAP_ASIMDDP), which the quantized
// kernels use at the neon level when present (Cortex-A55/A75, Neoverse, Apple M1 and later).
bool cpu_has_neon_dotprod();
// Selects the highest level at or below both `level` and detected_isa() on the ladders above
// (their min on one ladder; kGeneric across them); returns the level now active. Not
// thread-safe with concurrently running kernels: call it between kernel calls.
IsaLevel set_isa_level(IsaLevel level);

}  // namespace infergate
