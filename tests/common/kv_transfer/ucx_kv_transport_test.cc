// The KV handoff's transport over real UCX (shared memory and TCP on this machine): two
// transports in one process stand for a prefill and a decode worker.
#include <catch2/catch.hpp>
#include <chrono>
#include <cstddef>
#include <future>
#include <thread>
#include <vector>

#include "common/kv_transfer/ucx_kv_transport.h"

using namespace infergate;

namespace {

std::vector<std::byte> pattern(int blocks, size_t block_nbytes) {
  std::vector<std::byte> bytes(size_t(blocks) * block_nbytes);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = std::byte((i * 131 + i / block_nbytes) % 251);
  return bytes;
}

KvFetchResult fetch(UcxKvTransport& decode, const KvSource& source, int first, int count,
                    double timeout_s = 10) {
  std::promise<KvFetchResult> result;
  decode.fetch(source, first, count, timeout_s,
               [&](KvFetchResult r) { result.set_value(std::move(r)); });
  return result.get_future().get();
}

// The release message travels after the read: wait for the prefill side to see it.
bool eventually_released(const UcxKvTransport& prefill, int64_t released) {
  for (int i = 0; i < 200; ++i) {
    if (prefill.stats().exports_released >= released) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST_CASE("a decode transport reads exactly the blocks it asks for and releases the export",
          "[kv_transfer]") {
  UcxKvTransport prefill({}), decode({});
  const size_t block = 3 * 1024 * 1024 + 5;  // several read chunks, not a multiple of one
  const std::vector<std::byte> bytes = pattern(4, block);
  const std::optional<KvSource> source = prefill.expose(bytes, block, 4);
  REQUIRE(source);
  CHECK(prefill.stats().exports_held == 1);
  CHECK(prefill.stats().exported_bytes_held == int64_t(bytes.size()));

  const KvFetchResult tail = fetch(decode, *source, 1, 3);
  REQUIRE(tail.ok);
  CHECK(tail.error.empty());
  REQUIRE(tail.bytes.size() == 3 * block);
  CHECK(std::equal(tail.bytes.begin(), tail.bytes.end(), bytes.begin() + long(block)));
  CHECK(eventually_released(prefill, 1));
  CHECK(prefill.stats().exports_held == 0);
  CHECK(prefill.stats().exported_bytes_held == 0);
  CHECK(decode.stats().fetched_bytes == int64_t(3 * block));
}

TEST_CASE("a read of no blocks only releases the export", "[kv_transfer]") {
  UcxKvTransport prefill({}), decode({});
  const std::optional<KvSource> source = prefill.expose(pattern(2, 64), 64, 2);
  REQUIRE(source);
  const KvFetchResult none = fetch(decode, *source, 2, 0);
  CHECK(none.ok);
  CHECK(none.bytes.empty());
  CHECK(eventually_released(prefill, 1));
}

TEST_CASE("blocks outside the export are refused without reading", "[kv_transfer]") {
  UcxKvTransport prefill({}), decode({});
  const std::optional<KvSource> source = prefill.expose(pattern(2, 64), 64, 2);
  REQUIRE(source);
  const KvFetchResult bad = fetch(decode, *source, 1, 2);
  CHECK_FALSE(bad.ok);
  CHECK(bad.error == "blocks [1, 3) are not all in an export of 2");
  CHECK(prefill.stats().exports_held == 1);  // not released: it expires
}

TEST_CASE("exports past the byte limit are refused and unreleased ones expire", "[kv_transfer]") {
  KvTransportOptions options;
  options.max_exported_bytes = 1000;
  options.export_ttl_s = 0.2;
  UcxKvTransport prefill(options);
  REQUIRE(prefill.expose(pattern(6, 100), 100, 6));
  CHECK_FALSE(prefill.expose(pattern(5, 100), 100, 5));  // 600 + 500 > 1000
  CHECK(prefill.stats().exports_refused == 1);
  for (int i = 0; i < 100 && prefill.stats().exports_held > 0; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  CHECK(prefill.stats().exports_held == 0);
  CHECK(prefill.stats().exports_expired == 1);
  CHECK(prefill.expose(pattern(5, 100), 100, 5));  // room again
}

TEST_CASE("a read from a prefill worker that is gone fails within its timeout", "[kv_transfer]") {
  UcxKvTransport decode({});
  std::optional<KvSource> source;
  {
    UcxKvTransport prefill({});
    source = prefill.expose(pattern(4, 1 << 20), 1 << 20, 4);
    REQUIRE(source);
  }
  const auto start = std::chrono::steady_clock::now();
  const KvFetchResult gone = fetch(decode, *source, 0, 4, 2.0);
  const double took =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  CHECK_FALSE(gone.ok);
  CHECK_FALSE(gone.error.empty());
  CHECK(took < 4.0);
  INFO(gone.error);
}

TEST_CASE("an export dropped while it is read never passes for KV", "[kv_transfer]") {
  KvTransportOptions short_lived, slow;
  short_lived.export_ttl_s = 0.1;
  slow.max_read_bytes_per_s = 100e3;  // 64 KiB take 0.65 s: the export expires mid-read
  UcxKvTransport prefill(short_lived), decode(slow);
  const size_t block = 16 * 1024;  // small enough to stay on the heap once freed
  const std::optional<KvSource> source = prefill.expose(pattern(4, block), block, 4);
  REQUIRE(source);
  const KvFetchResult r = fetch(decode, *source, 0, 4);
  CHECK_FALSE(r.ok);
  CHECK(r.bytes.empty());
  INFO(r.error);
  CHECK(prefill.stats().exports_expired == 1);
}

TEST_CASE("an export must hold exactly its blocks", "[kv_transfer]") {
  UcxKvTransport prefill({});
  CHECK_THROWS_WITH(prefill.expose(pattern(2, 64), 64, 3),
                    "an export of 3 blocks of 64 bytes cannot hold 128 bytes");
}

TEST_CASE("a capped read rate spaces the read out", "[kv_transfer]") {
  KvTransportOptions capped;
  capped.max_read_bytes_per_s = 40e6;  // 40 MB/s: 8 MiB take at least 0.2 s
  UcxKvTransport prefill({}), decode(capped);
  const size_t block = 1 << 20;
  const std::optional<KvSource> source = prefill.expose(pattern(8, block), block, 8);
  REQUIRE(source);
  const KvFetchResult r = fetch(decode, *source, 0, 8);
  REQUIRE(r.ok);
  // Each chunk starts once the bytes up to its end would have crossed the link.
  CHECK(r.seconds >= 8.0 * double(block) / 40e6);
  CHECK(r.seconds < 8.0 * double(block) / 40e6 + 2.0);

  // Two reads at once share the one link: the later to finish took as long as both in turn.
  // (Each export is released by its read: two exports.)
  const std::optional<KvSource> one = prefill.expose(pattern(4, block), block, 4);
  const std::optional<KvSource> two = prefill.expose(pattern(4, block), block, 4);
  REQUIRE(one);
  REQUIRE(two);
  std::promise<KvFetchResult> a, b;
  decode.fetch(*one, 0, 4, 10, [&](KvFetchResult x) { a.set_value(std::move(x)); });
  decode.fetch(*two, 0, 4, 10, [&](KvFetchResult x) { b.set_value(std::move(x)); });
  const KvFetchResult ra = a.get_future().get(), rb = b.get_future().get();
  REQUIRE(ra.ok);
  REQUIRE(rb.ok);
  CHECK(std::max(ra.seconds, rb.seconds) >= 0.95 * 8.0 * double(block) / 40e6);  // b starts later
}
