#include "fuzz/fuzz_failure.h"

#include <cstdio>
#include <cstdlib>

namespace infergate::fuzz {

namespace {

bool has_model = false;
std::string_view model_name;

// The input as a C string literal, cut at kMaxShown bytes: request bodies may hold any byte.
void print_escaped(std::string_view input) {
  constexpr size_t kMaxShown = 512;
  std::fputc('"', stderr);
  for (size_t i = 0; i < input.size() && i < kMaxShown; ++i) {
    const unsigned char c = static_cast<unsigned char>(input[i]);
    if (c == '"' || c == '\\') {
      std::fprintf(stderr, "\\%c", c);
    } else if (c >= 0x20 && c < 0x7f) {
      std::fputc(c, stderr);
    } else {
      std::fprintf(stderr, "\\x%02x", c);
    }
  }
  std::fputc('"', stderr);
  if (input.size() > kMaxShown) std::fprintf(stderr, " ... (%zu bytes)", input.size());
  std::fputc('\n', stderr);
}

}  // namespace

void set_failing_model(std::string_view name) {
  has_model = true;
  model_name = name;
}

void fail(std::string_view what, std::string_view input) {
  std::fprintf(stderr, "fuzz finding: %.*s\n", int(what.size()), what.data());
  if (has_model) {
    std::fprintf(stderr, "served model: '%.*s'\n", int(model_name.size()), model_name.data());
  }
  std::fprintf(stderr, "input: ");
  print_escaped(input);
  std::fflush(stderr);
  std::abort();
}

}  // namespace infergate::fuzz
