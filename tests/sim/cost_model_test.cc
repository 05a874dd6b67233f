// The simulator's cost model against hand calculations (docs/simulator.md, "The cost model").
#include <catch2/catch.hpp>

#include "sim/hardware_spec.h"
#include "sim/link_model.h"
#include "sim/memory_plan.h"
#include "sim/model_shape.h"
#include "sim/precision.h"
#include "sim/roofline.h"
#include "sim/step_cost_model.h"

using namespace infergate;

namespace {

// Every efficiency 1 and no fixed costs: the roofline itself.
Calibration ideal() {
  Calibration c;
  c.compute_efficiency = {{1, 1.0}};
  c.memory_efficiency = 1;
  return c;
}

StepCostModel model_on(const std::string& model, const std::string& hardware, SimLayout layout,
                       const Calibration& calibration) {
  const ModelShape shape = load_model_shape(model);
  const HardwareSpec hw = load_hardware_spec(hardware);
  return StepCostModel(shape.config, hw, calibration, layout,
                       make_precision("auto", shape.native_dtype, DType::kBF16, hw));
}

}  // namespace

TEST_CASE("a 4096^3 bf16 GEMM on an H100 roofline is compute-bound at 139 us") {
  const HardwareSpec h100 = load_hardware_spec("h100-sxm");
  const Work w = gemm_work(4096, 4096, 4096, 2, 2);
  CHECK(w.flops == Approx(2.0 * 4096 * 4096 * 4096));
  CHECK(w.bytes == Approx(3.0 * 4096 * 4096 * 2));
  const double s =
      roofline_seconds(w, h100.peak_flops_for("bf16"), 1, h100.memory_bandwidth_bytes_s, 1);
  // 1.374e11 FLOP / 989.4e12 FLOP/s; the 100.7 MB would take only 30 us at 3.35 TB/s.
  CHECK(s == Approx(138.91e-6).epsilon(1e-3));
  // At half the compute efficiency it takes twice as long; memory never binds here.
  CHECK(roofline_seconds(w, h100.peak_flops_for("bf16"), 0.5, h100.memory_bandwidth_bytes_s, 1) ==
        Approx(2 * s));
}

TEST_CASE("a single-token GEMV is memory-bound: the weights at the bandwidth") {
  const HardwareSpec h100 = load_hardware_spec("h100-sxm");
  const Work w = gemm_work(1, 4096, 4096, 2, 2);
  const double s =
      roofline_seconds(w, h100.peak_flops_for("bf16"), 1, h100.memory_bandwidth_bytes_s, 1);
  CHECK(s == Approx((4096.0 * 4096 * 2 + 2 * 4096 * 2) / 3.35e12).epsilon(1e-9));
}

TEST_CASE("an all-reduce of 16 MiB over NVLink among 8 H100s takes the ring's 79 us") {
  const HardwareSpec h100 = load_hardware_spec("h100-sxm");
  const LinkSpec& link = h100.link_for(8);
  CHECK(link.name == "NVLink 4");
  const double bytes = 16.0 * 1024 * 1024;
  // 2 (n-1)/n x 16 MiB at 450 GB/s = 65.2 us, plus 2 (n-1) = 14 steps of 1 us.
  CHECK(all_reduce_seconds(link, bytes, 8) == Approx(2 * 7.0 / 8 * bytes / 450e9 + 14e-6));
  CHECK(all_reduce_seconds(link, bytes, 8) == Approx(79.24e-6).epsilon(1e-3));
  CHECK(all_reduce_seconds(link, bytes, 1) == 0);
  // Beyond one node the ring crosses InfiniBand.
  CHECK(h100.link_for(16).name == "InfiniBand NDR 400");
}

TEST_CASE("attention work counts causal pairs and reads the KV once") {
  // 4 new tokens after 10 cached: query i sees 10 + i + 1 keys -> 4 x 10 + 10 pairs.
  const Work w = attention_work(4, 10, 2, 1, 8, 2, 4);
  CHECK(w.flops == Approx(4.0 * 50 * 2 * 8));
  CHECK(w.bytes == Approx(14 * 2 * 1 * 8 * 2 + 4 * 2 * 1 * 8 * 2 + 2 * 4 * 2 * 8 * 4));
}

TEST_CASE("a 7B model's fp16 KV for 16 sequences of 4,096 tokens is 32 GiB") {
  const ModelShape shape = load_model_shape("llama-2-7b");
  const HardwareSpec h100 = load_hardware_spec("h100-sxm");
  const Precision p = make_precision("auto", shape.native_dtype, DType::kF16, h100);
  CHECK(p.weight_dtype == "f16");
  const DeviceMemoryPlan plan =
      plan_device_memory(shape.config, h100, SimLayout{}, {32}, p, 16, 2048, 0.9);
  // 2 (K, V) x 32 layers x 32 KV heads x 128 x 2 bytes = 512 KiB per token.
  CHECK(plan.kv_bytes_per_token == 524288);
  CHECK(plan.kv_bytes_per_token * 4096 * 16 == Approx(32.0 * 1024 * 1024 * 1024));
  // 6.74 B parameters in fp16: 13.5 GB of weights.
  CHECK(plan.weights_bytes == Approx(13.48e9).epsilon(0.01));
  CHECK(plan.fits);
}

TEST_CASE("Llama-3-70B in bf16 does not fit one A100 80GB and says why in numbers") {
  const ModelShape shape = load_model_shape("llama-3-70b");
  const HardwareSpec a100 = load_hardware_spec("a100-80gb");
  const Precision p = make_precision("auto", shape.native_dtype, DType::kBF16, a100);
  const DeviceMemoryPlan one =
      plan_device_memory(shape.config, a100, SimLayout{}, {80}, p, 16, 2048, 0.9);
  CHECK_FALSE(one.fits);
  CHECK(one.weights_bytes == Approx(141.1e9).epsilon(0.01));
  CHECK(one.reason.find("bf16 weights: 141.1 GB") == 0);
  // Two by tensor parallelism: half each.
  SimLayout tp2;
  tp2.tensor_parallel = 2;
  const DeviceMemoryPlan two = plan_device_memory(shape.config, a100, tp2, {80}, p, 16, 2048, 0.9);
  CHECK(two.weights_bytes == Approx(one.weights_bytes / 2).epsilon(0.01));
  // fp8 weights need a device with fp8 compute: the A100 has none.
  CHECK_THROWS_WITH(make_precision("fp8", shape.native_dtype, DType::kBF16, a100),
                    Catch::Contains("has no fp8 compute"));
  // The CPU engine runs fp8 weights in fp32, reading one byte per weight and a scale per 128.
  const Precision cpu =
      make_precision("fp8", shape.native_dtype, DType::kF16, load_hardware_spec("epyc-zen4-2core"));
  CHECK(cpu.compute_dtype == "f32");
  CHECK(cpu.weight_bytes == 132.0 / 128.0);
}

TEST_CASE("a batch-1 decode step of Llama-3-8B on an H100 streams its weights") {
  const StepCostModel m = model_on("llama-3-8b", "h100-sxm", SimLayout{}, ideal());
  const std::vector<SequenceWork> one = {{1, 100, 1}};
  const StepTime t = m.step(one);
  // 8.03 B bf16 parameters = 16.06 GB at 3.35 TB/s = 4.8 ms (embeddings are not read whole).
  const double weights = (8.03e9 - 128256.0 * 4096) * 2;
  CHECK(t.seconds == Approx(weights / 3.35e12).epsilon(0.02));
  CHECK(t.communication_s == 0);
  // Tensor parallelism halves the weights each device streams and adds two all-reduces a layer.
  SimLayout tp2;
  tp2.tensor_parallel = 2;
  const StepTime t2 = model_on("llama-3-8b", "h100-sxm", tp2, ideal()).step(one);
  CHECK(t2.by_operator.at("all_reduce") > 0);
  CHECK(t2.seconds < 0.6 * t.seconds);
  CHECK(t2.seconds > 0.5 * t.seconds);
}

TEST_CASE("a long prefill is compute-bound and grows with the prompt") {
  const StepCostModel m = model_on("llama-3-8b", "h100-sxm", SimLayout{}, ideal());
  const std::vector<SequenceWork> p1 = {{1024, 0, 1}};
  const std::vector<SequenceWork> p2 = {{2048, 0, 1}};
  const double t1 = m.step(p1).seconds, t2 = m.step(p2).seconds;
  // 2 x 7.5 B x 1024 FLOPs of projections at 989 TFLOP/s = 15.6 ms, plus causal attention.
  CHECK(t1 == Approx(2 * 7.5e9 * 1024 / 989.4e12).epsilon(0.1));
  CHECK(t2 > 2 * t1);  // attention grows with the square
}

TEST_CASE("pipeline stages run micro-batches as GPipe fills them") {
  SimLayout pp2;
  pp2.pipeline_parallel = 2;
  pp2.micro_batches = 2;
  const StepCostModel m = model_on("llama-3-8b", "h100-sxm", pp2, ideal());
  CHECK(m.stage_layers() == std::vector<int>{16, 16});
  const std::vector<SequenceWork> batch = {{512, 0, 1}, {512, 0, 1}};
  const StepTime t = m.step(batch);
  const StepCostModel whole = model_on("llama-3-8b", "h100-sxm", SimLayout{}, ideal());
  const double single = whole.step(batch).seconds;
  // Two micro-batches over two stages: three stage-slots of half the layers and half the
  // batch each, about 3/4 of one device doing everything (plus the hop between stages).
  CHECK(t.seconds == Approx(0.75 * single).epsilon(0.05));
  CHECK(t.by_operator.at("send_recv") > 0);
}

TEST_CASE("micro-batches split by tokens keep every sequence once") {
  const std::vector<SequenceWork> seqs = {{100, 0, 1}, {1, 5, 1}, {1, 5, 1}, {100, 0, 1}};
  const auto parts = split_micro_batches(seqs, 2);
  REQUIRE(parts.size() == 2);
  CHECK(parts[0].size() + parts[1].size() == 4);
  CHECK(parts[0].size() == 2);                      // 101 tokens, then 101
  CHECK(split_micro_batches(seqs, 8).size() == 4);  // never an empty micro-batch
}

TEST_CASE("MoE steps touch the experts a batch routes to and EP adds all-to-alls") {
  SimLayout ep2;
  ep2.expert_parallel = 2;
  const StepCostModel m = model_on("mixtral-8x7b", "h100-sxm", ep2, ideal());
  const std::vector<SequenceWork> one = {{1, 10, 1}};
  const StepTime t = m.step(one);
  CHECK(t.by_operator.at("all_to_all") > 0);
  CHECK(t.by_operator.at("moe_experts") > 0);
  // One token reads 2 of 8 experts; 64 tokens read nearly all of them.
  std::vector<SequenceWork> many(64, SequenceWork{1, 10, 1});
  const StepTime t64 = m.step(many);
  CHECK(t64.by_operator.at("moe_experts") > 3 * t.by_operator.at("moe_experts"));
  CHECK_THROWS_WITH(model_on("llama-3-8b", "h100-sxm", ep2, ideal()),
                    Catch::Contains("needs a MoE model"));
}
