// libFuzzer target: `kv_transfer.source` values through everything a decode worker does with
// one before UCX would see it (server/kv_handoff.cc): kv_source_from_json, then
// kv_source_refusal (the signature, the geometry, the range inside the signed arena, the
// prompt's digest). An input starting with 's' is re-signed once it parses, so the checks behind
// the signature see arbitrary addresses, sizes and digests too. A finding: an exception other
// than a refusal naming its field, a sanitizer report, or an accepted source whose read would
// leave the export arena or the prompt.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "common/kv_transfer/kv_source.h"
#include "common/kv_transfer/kv_source_check.h"
#include "common/kv_transfer/kv_source_signature.h"
#include "fuzz/fuzz_failure.h"

namespace {

using namespace infergate;

// The decode worker's side; the seeds in fuzz/corpus/kv_source are signed with this secret.
const std::string kSecret = "the kv_source fuzz target's secret";
constexpr uint64_t kBlockBytes = 64;
constexpr int kBlockTokens = 4;

const std::vector<int32_t>& prompt() {
  static const std::vector<int32_t> p = [] {
    std::vector<int32_t> tokens;
    for (int32_t i = 0; i < 32; ++i) tokens.push_back(100 + i);
    return tokens;
  }();
  return p;
}

// What an accepted source promises the transport (ucx_kv_transport.cc): the blocks and the
// canary inside the arena, this worker's geometry, and blocks of the prompt only.
void check_accepted(const KvSource& s, std::string_view input) {
  // No overflow: num_blocks <= 2^20 and block_nbytes <= 2^30 (as parsed).
  const uint64_t bytes = uint64_t(s.num_blocks) * s.block_nbytes + sizeof(uint64_t);
  const bool inside = s.arena_address != 0 && s.address >= s.arena_address &&
                      s.arena_bytes >= bytes &&
                      s.address - s.arena_address <= s.arena_bytes - bytes &&
                      s.arena_address <= UINT64_MAX - s.arena_bytes;
  fuzz::require(inside, "an accepted source reads outside its arena", input);
  fuzz::require(s.block_nbytes == kBlockBytes && s.block_tokens == kBlockTokens,
                "an accepted source has another geometry", input);
  fuzz::require(uint64_t(s.num_blocks) * kBlockTokens <= prompt().size(),
                "an accepted source covers more than the prompt", input);
  fuzz::require(kv_source_range_refusal(s).empty(), "the transport would refuse it", input);
  fuzz::require(kv_read_refusal(s, 0, 0, {}).empty(), "a read of no blocks is refused", input);
}

void fuzz_one(std::string_view input) {
  std::string_view text = input;
  const bool resign = !text.empty() && text.front() == 's';
  if (resign) text.remove_prefix(1);
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) return;  // the request parser refuses it before this
  KvSource source;
  try {
    source = kv_source_from_json(j, "kv_transfer.source");
  } catch (const std::invalid_argument& e) {
    fuzz::require(std::string_view(e.what()).starts_with("kv_transfer.source"),
                  "a refusal does not name its field", input);
    return;
  }
  if (resign) source.signature = kv_source_signature(source, kSecret);
  if (kv_source_refusal(source, {kSecret, kBlockBytes, kBlockTokens, prompt()}).empty()) {
    check_accepted(source, input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  try {
    fuzz_one(input);
  } catch (const std::exception& e) {
    fuzz::fail(std::string("checking a kv_transfer.source threw: ") + e.what(), input);
  }
  return 0;
}
