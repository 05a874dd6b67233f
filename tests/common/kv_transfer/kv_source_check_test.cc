// The trust in a KV source (docs/disaggregation.md, "Trust"): a decode worker reads only sources
// signed with its secret, whose blocks lie inside the signed arena and were computed for the
// request's own prompt, and adopts only bytes matching the signed checksums. Every check runs
// before UCX sees the source.
#include <stdlib.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstdio>
#include <fstream>
#include <future>
#include <vector>

#include "common/kv_transfer/kv_digests.h"
#include "common/kv_transfer/kv_source_check.h"
#include "common/kv_transfer/kv_source_signature.h"
#include "common/kv_transfer/kv_transfer_secret.h"
#include "common/kv_transfer/ucx_kv_transport.h"

using namespace infergate;

namespace {

const std::string kSecret = "a test secret of 32 bytes, enough";
constexpr int kBlockTokens = 4;
constexpr size_t kBlockBytes = 64;

std::vector<int32_t> prompt_of(int length, int seed) {
  std::vector<int32_t> p;
  for (int i = 0; i < length; ++i) p.push_back(seed * 1000 + i);
  return p;
}

std::vector<std::byte> kv_bytes(int blocks) {
  std::vector<std::byte> b(size_t(blocks) * kBlockBytes);
  for (size_t i = 0; i < b.size(); ++i) b[i] = std::byte(i * 7 % 251);
  return b;
}

// What a prefill worker hands out: 3 blocks of `prompt`, in an arena at 0x10000, signed.
KvSource signed_source(const std::vector<int32_t>& prompt, const std::string& secret = kSecret) {
  KvSource s;
  s.worker = std::string(40, 'w');
  s.rkey = std::string(20, 'k');
  s.arena_address = 0x10000;
  s.arena_bytes = 1 << 20;
  s.address = 0x10000 + 4096;
  s.export_id = 7;
  s.block_nbytes = kBlockBytes;
  s.num_blocks = 3;
  s.block_tokens = kBlockTokens;
  s.tokens_digest = kv_tokens_digest(std::span(prompt).first(3 * kBlockTokens), kBlockTokens);
  s.block_checksums = kv_block_checksums(kv_bytes(3), kBlockBytes);
  s.signature = kv_source_signature(s, secret);
  return s;
}

KvSourceExpectation expect(const std::vector<int32_t>& prompt,
                           const std::string& secret = kSecret) {
  return {secret, kBlockBytes, kBlockTokens, prompt};
}

}  // namespace

TEST_CASE("a signed source for the request's own prompt may be read", "[kv_transfer]") {
  const std::vector<int32_t> prompt = prompt_of(14, 1);
  CHECK(kv_source_refusal(signed_source(prompt), expect(prompt)) == "");
  // It survives its trip through JSON.
  const KvSource back =
      kv_source_from_json(kv_source_to_json(signed_source(prompt)), "kv_transfer.source");
  CHECK(kv_source_refusal(back, expect(prompt)) == "");
}

TEST_CASE("a source is refused without a secret, under another secret, or changed in any field",
          "[kv_transfer]") {
  const std::vector<int32_t> prompt = prompt_of(14, 1);
  const std::string unsigned_why = "the source's signature does not verify";
  CHECK(kv_source_refusal(signed_source(prompt), expect(prompt, ""))
            .starts_with("this decode worker has no KV transfer secret"));
  CHECK(kv_source_refusal(signed_source(prompt), expect(prompt, kSecret + "x"))
            .starts_with(unsigned_why));
  const std::vector<void (*)(KvSource&)> changes = {
      [](KvSource& s) { s.worker = std::string(300, '\xff'); },
      [](KvSource& s) { s.worker[0] = '\x0f'; },
      [](KvSource& s) { s.rkey[1] ^= 1; },
      [](KvSource& s) { s.address = 0; },
      [](KvSource& s) { s.address -= 1 << 20; },
      [](KvSource& s) { s.num_blocks = 1000; },
      [](KvSource& s) { s.export_id += 1; },
      [](KvSource& s) { s.block_nbytes += 1; },
      [](KvSource& s) { s.arena_bytes = UINT64_MAX; },
      [](KvSource& s) { s.block_tokens = 16; },
      [](KvSource& s) { s.tokens_digest[5] ^= 1; },
      [](KvSource& s) { s.block_checksums[0] ^= 1; },
      [](KvSource& s) { s.signature[31] ^= 1; },
  };
  for (size_t i = 0; i < changes.size(); ++i) {
    KvSource s = signed_source(prompt);
    changes[i](s);
    INFO("change " << i);
    CHECK(kv_source_refusal(s, expect(prompt)).starts_with(unsigned_why));
  }
}

TEST_CASE("a signed source outside its arena, of another geometry or prompt is refused",
          "[kv_transfer]") {
  const std::vector<int32_t> prompt = prompt_of(14, 1);
  const auto resigned = [](KvSource s) {
    s.signature = kv_source_signature(s, kSecret);
    return s;
  };
  KvSource s = signed_source(prompt);
  s.address = 0;
  CHECK(kv_source_refusal(resigned(s), expect(prompt)) ==
        "the source's blocks are not inside its prefill worker's export arena");
  s = signed_source(prompt);
  s.address = s.arena_address + s.arena_bytes - 3 * kBlockBytes;  // the canary falls outside
  CHECK(kv_source_refusal(resigned(s), expect(prompt)) ==
        "the source's blocks are not inside its prefill worker's export arena");
  s = signed_source(prompt);
  s.arena_address = UINT64_MAX - 10;
  CHECK(kv_source_refusal(resigned(s), expect(prompt)) ==
        "the source's arena is not a valid range");
  CHECK(kv_source_refusal(signed_source(prompt), {kSecret, kBlockBytes * 2, kBlockTokens, prompt})
            .starts_with("the prefill worker's KV blocks are 64 bytes, this worker's 128"));
  CHECK(kv_source_refusal(signed_source(prompt), {kSecret, kBlockBytes, 8, prompt}) ==
        "the prefill worker's blocks hold 4 tokens, this worker's 8");
  // Another prompt (even one sharing all but the last covered token) or a shorter one.
  const std::vector<int32_t> other = prompt_of(14, 2);
  CHECK(kv_source_refusal(signed_source(prompt), expect(other)) ==
        "the source's KV was computed for another prompt");
  std::vector<int32_t> near = prompt;
  near[11] += 1;
  CHECK(kv_source_refusal(signed_source(prompt), expect(near)) ==
        "the source's KV was computed for another prompt");
  CHECK(kv_source_refusal(signed_source(prompt), expect(prompt_of(11, 1))) ==
        "the source covers 12 tokens, more than the prompt's 11");
  // The same prompt grown past the covered blocks is the same prefix.
  CHECK(kv_source_refusal(signed_source(prompt), expect(prompt_of(40, 1))) == "");
}

TEST_CASE("only bytes matching the signed checksums are adopted", "[kv_transfer]") {
  const KvSource s = signed_source(prompt_of(14, 1));
  const std::vector<std::byte> all = kv_bytes(3);
  CHECK(kv_read_refusal(s, 0, 3, all) == "");
  const std::span<const std::byte> tail = std::span(all).subspan(kBlockBytes);
  CHECK(kv_read_refusal(s, 1, 2, tail) == "");
  CHECK(kv_read_refusal(s, 0, 0, {}) == "");
  std::vector<std::byte> flipped = all;
  flipped[2 * kBlockBytes + 5] ^= std::byte(1);
  CHECK(kv_read_refusal(s, 0, 3, flipped) ==
        "the KV read does not match the prefill worker's checksums");
  CHECK(kv_read_refusal(s, 0, 2, tail) ==  // the right length, the wrong blocks
        "the KV read does not match the prefill worker's checksums");
  CHECK(kv_read_refusal(s, 0, 3, tail) == "the KV read is not blocks [0, 3) of the export");
  CHECK(kv_read_refusal(s, 2, 2, tail) == "the KV read is not blocks [2, 4) of the export");
}

TEST_CASE("a source's new fields are refused by name when malformed", "[kv_transfer]") {
  const nlohmann::json good = kv_source_to_json(signed_source(prompt_of(14, 1)));
  const auto why = [&](const char* field, const nlohmann::json& value) {
    nlohmann::json j = good;
    if (value.is_null()) {
      j.erase(field);
    } else {
      j[field] = value;
    }
    try {
      kv_source_from_json(j, "kv_transfer.source");
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  CHECK(why("signature", nullptr) == "kv_transfer.source.signature is missing");
  CHECK(why("signature", "00") == "kv_transfer.source.signature must be 64 hex digits");
  CHECK(why("tokens_digest", 5) == "kv_transfer.source.tokens_digest must be a hex string");
  CHECK(why("block_checksums", std::string(16, '0')) ==
        "kv_transfer.source.block_checksums must be 48 hex digits");
  CHECK(why("block_tokens", 0) ==
        "kv_transfer.source.block_tokens must be an integer in [1, 65536]");
  CHECK(why("arena_bytes", -1) ==
        "kv_transfer.source.arena_bytes must be an integer in [0, 18446744073709551615]");
  nlohmann::json none = good;
  none["num_blocks"] = 0u;
  none["block_checksums"] = "00";
  CHECK_THROWS_WITH(kv_source_from_json(none, "s"), "s.block_checksums must be \"\" for 0 blocks");
}

TEST_CASE("the KV transfer secret comes from its file or the environment, bounded",
          "[kv_transfer]") {
  ::unsetenv(kKvTransferSecretVariable);
  CHECK(load_kv_transfer_secret("") == "");
  ::setenv(kKvTransferSecretVariable, "sixteen bytes ok", 1);
  CHECK(load_kv_transfer_secret("") == "sixteen bytes ok");
  ::setenv(kKvTransferSecretVariable, "short", 1);
  CHECK_THROWS_WITH(load_kv_transfer_secret(""),
                    "INFERGATE_KV_TRANSFER_SECRET must hold 16 to 4096 bytes, got 5");
  char path[] = "/tmp/infergate-secret-XXXXXX";
  const int fd = ::mkstemp(path);
  REQUIRE(fd >= 0);
  ::close(fd);
  std::ofstream(path) << "from the file, which wins\n";
  CHECK(load_kv_transfer_secret(path) == "from the file, which wins");
  std::ofstream(path) << std::string(5000, 's');
  CHECK_THROWS_WITH(
      load_kv_transfer_secret(path),
      std::string("--kv-transfer-secret-file ") + path + " must hold 16 to 4096 bytes, got 4098");
  std::remove(path);
  CHECK_THROWS_WITH(load_kv_transfer_secret(path),
                    std::string("--kv-transfer-secret-file ") + path + " cannot be read");
  ::unsetenv(kKvTransferSecretVariable);
  const std::string a = random_kv_transfer_secret(), b = random_kv_transfer_secret();
  CHECK(a.size() == 64);
  CHECK(a != b);
}

TEST_CASE("the transport refuses a read outside the source's arena before UCX sees it",
          "[kv_transfer]") {
  UcxKvTransport prefill({}), decode({});
  std::optional<KvSource> source = prefill.expose(kv_bytes(2), kBlockBytes, 2);
  REQUIRE(source);
  CHECK(source->arena_address != 0);
  CHECK(source->address >= source->arena_address);
  source->address = source->arena_address + source->arena_bytes - kBlockBytes;
  std::promise<KvFetchResult> result;
  decode.fetch(*source, 0, 2, 5, [&](KvFetchResult r) { result.set_value(std::move(r)); });
  const KvFetchResult r = result.get_future().get();
  CHECK_FALSE(r.ok);
  CHECK(r.error == "the source's blocks are not inside its prefill worker's export arena");
}

TEST_CASE("the kv_source fuzz seeds' signed source verifies, so the fuzzer gets past the signature",
          "[kv_transfer]") {
  std::ifstream in(std::string(INFERGATE_SOURCE_DIR) + "/fuzz/corpus/kv_source/signed.json");
  REQUIRE(in);
  const KvSource s = kv_source_from_json(nlohmann::json::parse(in), "seed");
  std::vector<int32_t> prompt;
  for (int32_t i = 0; i < 32; ++i) prompt.push_back(100 + i);
  // fuzz/fuzz_kv_source.cc's secret and geometry.
  CHECK(kv_source_refusal(s, {"the kv_source fuzz target's secret", 64, 4, prompt}) == "");
}
