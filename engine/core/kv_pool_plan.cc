#include "engine/core/kv_pool_plan.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "engine/kv/kv_cache_storage.h"

namespace infergate {

namespace {

std::string gib(double bytes) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.0f bytes (%.1f GiB)", bytes, bytes / double(1 << 30));
  return text;
}

// Where the pool size came from, in the user's words.
std::string pool_source(const EngineConfig& c, int num_blocks) {
  if (c.num_kv_blocks > 0) return "num_kv_blocks = " + std::to_string(num_blocks);
  return "kv_cache_bytes = " + std::to_string(c.kv_cache_bytes) + " gives " +
         std::to_string(num_blocks) + " blocks";
}

void check_memory(const EngineConfig& c, const ModelConfig& m, int num_blocks, int64_t limit) {
  const double bytes = kv_pool_bytes(m, c.block_size, c.kv_cache_dtype, num_blocks);
  if (limit <= 0 || bytes <= double(limit)) return;
  const std::string origin =
      c.num_kv_blocks > 0 ? ""
                          : " (from kv_cache_bytes = " + std::to_string(c.kv_cache_bytes) + ")";
  throw std::invalid_argument(
      "engine config: the KV pool needs " + gib(bytes) + ": " + std::to_string(num_blocks) +
      " blocks" + origin + " x " + std::to_string(c.block_size) + " tokens x " +
      std::to_string(m.num_layers) + " layers x " + std::to_string(m.num_kv_heads) +
      " KV heads x " + std::to_string(m.head_dim) + " head_dim x 2 (K and V) x " +
      std::to_string(dtype_bytes(c.kv_cache_dtype, 1)) + " bytes (" + dtype_name(c.kv_cache_dtype) +
      (is_scaled_kv(c.kv_cache_dtype) ? ", and a 4-byte scale per head_dim row" : "") +
      "); this machine has " + gib(double(limit)) +
      " of physical memory; lower num_kv_blocks (--num-kv-blocks) or kv_cache_bytes "
      "(--kv-cache-bytes)");
}

}  // namespace

int64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page_size <= 0) return 0;
  return int64_t(pages) * int64_t(page_size);
}

double kv_pool_bytes(const ModelConfig& model, int block_size, DType dtype, int64_t num_blocks) {
  // In double: blocks near INT32_MAX times a large model overflow int64.
  return double(num_blocks) * double(block_size) *
         double(KvCacheStorage::bytes_per_token(model, dtype));
}

KvPoolPlan plan_kv_pool(const EngineConfig& c, const ModelConfig& m, int64_t memory_limit_bytes) {
  KvPoolPlan plan;
  plan.num_blocks = c.num_kv_blocks > 0 ? c.num_kv_blocks
                                        : KvCacheStorage::blocks_for_bytes(
                                              m, c.block_size, c.kv_cache_dtype, c.kv_cache_bytes);
  check_memory(c, m, plan.num_blocks, memory_limit_bytes);
  const int wanted = c.max_model_len > 0 ? std::min(c.max_model_len, m.max_position_embeddings)
                                         : m.max_position_embeddings;
  const int64_t pool_tokens = int64_t(plan.num_blocks) * c.block_size;
  plan.max_model_len = wanted;
  if (pool_tokens >= wanted) return plan;
  const std::string pool = "the KV pool (" + pool_source(c, plan.num_blocks) + ", " +
                           std::to_string(c.block_size) + " tokens per block) holds " +
                           std::to_string(pool_tokens) + " tokens";
  if (!c.fit_max_model_len) {
    throw std::invalid_argument(
        "engine config: " + pool + ", fewer than one max_model_len sequence needs (" +
        std::to_string(wanted) +
        "); give it more blocks or memory (num_kv_blocks / --num-kv-blocks, kv_cache_bytes / "
        "--kv-cache-bytes), "
        "or a smaller max_model_len (--max-model-len), or set fit_max_model_len "
        "(--fit-max-model-len) to lower max_model_len to what the pool holds");
  }
  // A prompt must be shorter than max_model_len, so 2 is the least that can serve anything.
  if (pool_tokens < 2) {
    throw std::invalid_argument("engine config: " + pool +
                                ", too few for fit_max_model_len (a sequence needs at least 2); "
                                "give it more blocks or memory");
  }
  plan.max_model_len = int(pool_tokens);
  plan.notice = "max_model_len lowered from " + std::to_string(wanted) + " to " +
                std::to_string(pool_tokens) + " to fit: " + pool + " (fit_max_model_len)";
  return plan;
}

}  // namespace infergate
