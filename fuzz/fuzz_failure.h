// How a fuzz target reports a finding: print what broke and the input, then abort(), which
// libFuzzer (and the g++ replay, through a non-zero exit) reports as a crash.
#pragma once

#include <string_view>

namespace infergate::fuzz {

[[noreturn]] void fail(std::string_view what, std::string_view input);

// The served model fail() names beside the input; `name` must outlive the calls to fail() (the
// served model shapes are static).
void set_failing_model(std::string_view name);

// fail(what, input) unless `ok`.
inline void require(bool ok, std::string_view what, std::string_view input) {
  if (!ok) fail(what, input);
}

}  // namespace infergate::fuzz
