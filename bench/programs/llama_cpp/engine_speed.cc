// infergate_engine_speed: the engine measured the way llama_cpp_speed.mjs measures llama.cpp,
// on the same GGUF file and token ids, so the two print comparable JSON: prefill of one prompt
// to its first token, and greedy decode of S concurrent streams (timed from the step after every
// stream has its first token). Each figure is the best of --reps. The same process measures the
// roofline the figures are held to, at the kernels' active ISA level (INFERGATE_ISA lowers it):
// fp32 FMA peak at that vector width and read bandwidth, both on the engine's thread count.
#include <algorithm>
#include <boost/program_options.hpp>
#include <chrono>
#include <cstdint>
#include <iostream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "bench/programs/micro/baselines.h"
#include "bench/programs/micro/engine_requests.h"
#include "bench/programs/micro/model_cost.h"
#include "engine/core/engine.h"
#include "engine/kv/kv_cache_storage.h"
#include "engine/model/model_argument.h"
#include "engine/model/model_loader.h"

namespace po = boost::program_options;

namespace infergate::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  std::string model;
  int threads = 0;
  int prefill = 512;
  int prompt = 128;
  int decode = 64;
  std::vector<int> streams = {1, 8, 32};
  int reps = 3;
  std::string kv_dtype = "f16";
  std::string weight_dtype =
      "auto";  // converts the file's matrices at load (w8a8 has no GGUF type)
};

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

EngineConfig engine_config(const Options& o, int streams, int tokens_per_stream) {
  EngineConfig c;
  c.kv_cache_dtype = parse_dtype(o.kv_dtype);
  c.prefix_caching = false;  // every prompt is computed, as llama.cpp computes it
  c.num_threads = o.threads;
  c.max_num_seqs = std::max(streams, 1);
  c.max_num_batched_tokens = std::max(o.prefill, 2048);
  c.max_model_len = tokens_per_stream + 16;
  c.kv_cache_bytes = int64_t(1) << 30;
  return c;
}

std::string id_of(int rep, int stream) {
  std::string id = std::to_string(rep);
  id.append("-").append(std::to_string(stream));
  return id;
}

double prefill_seconds(const Options& o, const ModelWeights& weights) {
  Engine engine(engine_config(o, 1, o.prefill + 1), weights);
  double best = 1e30;
  for (int rep = 0; rep < o.reps; ++rep) {
    engine.add_request(id_of(rep, 0),
                       distinct_prompt(o.prefill, 100 + rep, weights.config.vocab_size),
                       fixed_length(1));
    const auto t0 = Clock::now();
    while (engine.has_unfinished()) engine.step();
    best = std::min(best, seconds_since(t0));
  }
  return best;
}

double decode_tokens_per_second(const Options& o, const ModelWeights& weights, int streams) {
  Engine engine(engine_config(o, streams, o.prompt + o.decode + 1), weights);
  double best = 0;
  for (int rep = 0; rep < o.reps; ++rep) {
    for (int s = 0; s < streams; ++s) {
      engine.add_request(id_of(rep, s),
                         distinct_prompt(o.prompt, s + 1000 * rep, weights.config.vocab_size),
                         fixed_length(o.decode + 1));
    }
    int started = 0;
    while (started < streams) {
      for (const RequestOutput& out : engine.step()) started += out.num_output_tokens == 1;
    }
    const auto t0 = Clock::now();
    while (engine.has_unfinished()) engine.step();
    best = std::max(best, double(streams) * o.decode / seconds_since(t0));
  }
  return best;
}

// The machine's rates at the kernels' active level, on the engine's thread count: the fp32 FMA
// peak at that vector width, reading 1 GiB (past any cache), and reading a buffer the size of
// the model's weights (which a large last-level cache may partly hold, as it holds the weights).
struct Roofline {
  double fma_peak = 0, read = 0, read_model_size = 0;
};

Roofline measure_roofline(ThreadPool& pool, size_t model_bytes) {
  Roofline r;
  r.fma_peak = fma_peak_flops(active_isa(), pool);
  auto best_read = [&](size_t bytes) {
    const std::shared_ptr<float> buffer = huge_page_buffer(bytes);
    double best = 0;
    for (int pass = 0; pass < 4; ++pass) {
      best = std::max(best, read_pass_bytes_per_second(buffer.get(), bytes, pool));
    }
    return best;
  };
  r.read = best_read(size_t(1) << 30);
  r.read_model_size = best_read(model_bytes);
  return r;
}

// Measured before and after the engine runs, keeping the better of each: on a shared machine a
// baseline taken while another process ran would flatter every ratio.
Roofline better(const Roofline& a, const Roofline& b) {
  return {std::max(a.fma_peak, b.fma_peak), std::max(a.read, b.read),
          std::max(a.read_model_size, b.read_model_size)};
}

nlohmann::json measure(const Options& o) {
  ModelWeights weights = load_model(parse_model_argument(o.model, 0));
  weights.apply_weight_dtype(o.weight_dtype);
  const ModelConfig& config = weights.config;
  const DType weight_dtype = weights.layers.at(0).wq.dtype();
  const StepCost decode_cost = step_cost(config, weight_dtype, 1, 1, o.prompt + o.decode / 2, 1);
  const size_t model_bytes = (size_t(decode_cost.weight_bytes) + 255) / 256 * 256;

  nlohmann::json r;
  r["engine"] = "infergate";
  r["isa"] = {{"active", isa_name(active_isa())}, {"detected", isa_name(detected_isa())}};
  ThreadPool pool(o.threads);
  r["threads"] = pool.size();
  const Roofline before = measure_roofline(pool, model_bytes);

  const double prefill_s = prefill_seconds(o, weights);
  std::vector<double> decode_tok_s;
  for (int streams : o.streams)
    decode_tok_s.push_back(decode_tokens_per_second(o, weights, streams));
  const Roofline roof = better(before, measure_roofline(pool, model_bytes));
  r["fma_peak_GFLOPs"] = roof.fma_peak / 1e9;
  r["read_GBps"] = roof.read / 1e9;
  r["read_model_size_GBps"] = roof.read_model_size / 1e9;

  const StepCost prefill_cost = step_cost(config, weight_dtype, 1, o.prefill, o.prefill, 1);
  r["prefill_tokens"] = o.prefill;
  r["prefill_tok_s"] = o.prefill / prefill_s;
  r["prefill_GFLOPs"] = prefill_cost.flops / prefill_s / 1e9;
  if (roof.fma_peak > 0)
    r["prefill_fma_peak_ratio"] = prefill_cost.flops / prefill_s / roof.fma_peak;
  r["decode"] = nlohmann::json::array();
  for (size_t i = 0; i < o.streams.size(); ++i) {
    nlohmann::json d = {{"streams", o.streams[i]}, {"tok_s", decode_tok_s[i]}};
    if (o.streams[i] == 1) {  // the weights stream once per token: bytes/s against read rates
      const double bytes_per_s = decode_cost.weight_bytes * decode_tok_s[i];
      d["weight_GBps"] = bytes_per_s / 1e9;
      d["read_ratio"] = bytes_per_s / roof.read;
      d["read_model_size_ratio"] = bytes_per_s / roof.read_model_size;
    }
    r["decode"].push_back(d);
  }
  r["weight_dtype"] = dtype_name(weight_dtype);
  r["kv_dtype"] = o.kv_dtype;
  // What one token of context holds in the cache, scales included: the capacity side of a format.
  r["kv_bytes_per_token"] = KvCacheStorage::bytes_per_token(config, parse_dtype(o.kv_dtype));
  return r;
}

}  // namespace
}  // namespace infergate::bench

int main(int argc, char** argv) {
  using infergate::bench::Options;
  Options o;
  std::string streams = "1,8,32";
  po::options_description desc(
      "infergate_engine_speed --model MODEL [options] (prints one JSON object)");
  desc.add_options()("help,h", "show this help")("model", po::value(&o.model)->required(),
                                                 "GGUF file or safetensors directory")(
      "threads", po::value(&o.threads)->default_value(0), "engine threads (0: one per core)")(
      "prefill", po::value(&o.prefill)->default_value(512), "prompt tokens of the prefill figure")(
      "prompt", po::value(&o.prompt)->default_value(128), "prompt tokens of each decode stream")(
      "decode", po::value(&o.decode)->default_value(64), "tokens each stream decodes, timed")(
      "streams", po::value(&streams)->default_value("1,8,32"), "decode stream counts")(
      "reps", po::value(&o.reps)->default_value(3), "repetitions; the best is reported")(
      "kv-dtype", po::value(&o.kv_dtype)->default_value("f16"),
      "KV cache dtype (f32, f16, bf16, int8, fp8_e4m3)")(
      "weight-dtype", po::value(&o.weight_dtype)->default_value("auto"),
      "convert the matrices at load (auto keeps the file's; w8a8 needs it: its file is Q8_0)");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    po::notify(vm);
    o.streams.clear();
    for (size_t at = 0; at <= streams.size();) {
      const size_t comma = std::min(streams.find(',', at), streams.size());
      const int s = std::stoi(streams.substr(at, comma - at));
      if (s < 1 || s > 256) throw std::invalid_argument("--streams: each count must be 1..256");
      o.streams.push_back(s);
      at = comma + 1;
    }
    for (auto [name, v] : {std::pair{"--prefill", o.prefill},
                           {"--prompt", o.prompt},
                           {"--decode", o.decode},
                           {"--reps", o.reps}}) {
      if (v < 1 || v > 65536) {
        throw std::invalid_argument(std::string(name) + ": must be 1..65536, got " +
                                    std::to_string(v));
      }
    }
    std::cout << infergate::bench::measure(o).dump() << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "infergate_engine_speed: " << e.what() << "\n";
    return 2;
  }
}
