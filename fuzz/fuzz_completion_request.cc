// libFuzzer target: POST /v1/completions bodies through parse_completion_request.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "fuzz/fuzz_parser.h"
#include "fuzz/request_invariants.h"
#include "server/openai/completion_request.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace infergate;
  fuzz::fuzz_request_parser(std::string_view(reinterpret_cast<const char*>(data), size),
                            "parse_completion_request", parse_completion_request,
                            fuzz::check_accepted_completion);
  return 0;
}
