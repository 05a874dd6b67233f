#include "kernels/cpu/cpu_features.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <sys/syscall.h>
#include <unistd.h>
#elif defined(__aarch64__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

namespace infergate {

namespace {

#if defined(__x86_64__)
// AMX-TILE, AMX-BF16 and AVX512-BF16 in CPUID, and Linux's permission to use the tile state
// (ARCH_REQ_XCOMP_PERM for XTILEDATA; kernels before 5.16 refuse and AMX stays off).
bool amx_usable() {
  unsigned a, b, c, d;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  const bool tiles = (d >> 24) & 1u, amx_bf16 = (d >> 22) & 1u;
  if (!__get_cpuid_count(7, 1, &a, &b, &c, &d)) return false;
  const bool avx512_bf16 = (a >> 5) & 1u;
  if (!tiles || !amx_bf16 || !avx512_bf16) return false;
  constexpr long kArchReqXcompPerm = 0x1023, kXfeatureXtiledata = 18;
  return syscall(SYS_arch_prctl, kArchReqXcompPerm, kXfeatureXtiledata) == 0;
}
#endif

IsaLevel detect() {
#if defined(__x86_64__)
  __builtin_cpu_init();
  // The AVX-512 kernels use F, BW and VL (conversions, masked tails).
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl")) {
    return amx_usable() ? IsaLevel::kAmx : IsaLevel::kAvx512;
  }
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") &&
      __builtin_cpu_supports("f16c")) {
    return IsaLevel::kAvx2;
  }
#elif defined(__aarch64__)
  return IsaLevel::kNeon;  // Advanced SIMD is part of the aarch64 baseline (and of its ABI)
#endif
  return IsaLevel::kGeneric;
}

// The highest level at or below both a and b: their min on one ladder, kGeneric across the two
// (cpu_features.h). Only aarch64 builds have the second ladder.
IsaLevel lower_of(IsaLevel a, IsaLevel b) {
#if defined(__aarch64__)
  if (a == IsaLevel::kNeon || b == IsaLevel::kNeon) return a == b ? a : IsaLevel::kGeneric;
#endif
  return std::min(a, b);
}

IsaLevel initial_level() {
  IsaLevel level = detected_isa();
  if (const char* env = std::getenv("INFERGATE_ISA")) {
    if (std::strcmp(env, "generic") == 0) level = lower_of(level, IsaLevel::kGeneric);
    if (std::strcmp(env, "avx2") == 0) level = lower_of(level, IsaLevel::kAvx2);
    if (std::strcmp(env, "avx512") == 0) level = lower_of(level, IsaLevel::kAvx512);
#if defined(__aarch64__)
    if (std::strcmp(env, "neon") == 0) level = lower_of(level, IsaLevel::kNeon);
#endif
  }
  return level;
}

std::atomic<int>& active() {
  static std::atomic<int> level{static_cast<int>(initial_level())};
  return level;
}

}  // namespace

const char* isa_name(IsaLevel level) {
  switch (level) {
    case IsaLevel::kGeneric:
      return "generic";
    case IsaLevel::kAvx2:
      return "avx2";
    case IsaLevel::kAvx512:
      return "avx512";
    case IsaLevel::kAmx:
      return "amx";
#if defined(__aarch64__)
    case IsaLevel::kNeon:
      return "neon";
#endif
  }
  return "?";
}

IsaLevel detected_isa() {
  static const IsaLevel level = detect();
  return level;
}

// An AVX-512 extension is usable where the avx512 level is (the OS saves the zmm state).
// __builtin_cpu_supports takes a string literal, so each caller names its feature.
#if defined(__x86_64__)
#define INFERGATE_AVX512_EXTENSION(feature)                                             \
  static const bool has = (__builtin_cpu_init(), __builtin_cpu_supports(feature) != 0); \
  return has && detected_isa() >= IsaLevel::kAvx512
#else
#define INFERGATE_AVX512_EXTENSION(feature) return false
#endif

bool cpu_has_avx512_vnni() { INFERGATE_AVX512_EXTENSION("avx512vnni"); }
bool cpu_has_avx512_vbmi() { INFERGATE_AVX512_EXTENSION("avx512vbmi"); }
bool cpu_has_avx512_bf16() { INFERGATE_AVX512_EXTENSION("avx512bf16"); }

bool cpu_has_neon_dotprod() {
#if defined(__aarch64__)
  static const bool has = (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
  return has;
#else
  return false;
#endif
}

IsaLevel active_isa() { return static_cast<IsaLevel>(active().load(std::memory_order_relaxed)); }

IsaLevel set_isa_level(IsaLevel level) {
  const IsaLevel chosen = lower_of(level, detected_isa());
  active().store(static_cast<int>(chosen), std::memory_order_relaxed);
  return chosen;
}

}  // namespace infergate
