#include "engine/parallel/cuda/cuda_rank_model.h"

#include <cuda_runtime_api.h>

#include <memory>
#include <stdexcept>
#include <string>

#include "engine/comm/local_rank.h"
#include "engine/cuda/cuda_forward.h"
#include "engine/cuda/device_kv_cache.h"
#include "engine/cuda/owned_stream.h"
#include "engine/parallel/group_collectives.h"
#include "engine/parallel/rank_model.h"
#include "kernels/cuda/cuda_check.h"
#include "kernels/cuda/device.h"
#ifdef INFERGATE_HAVE_NCCL
#include "engine/comm/nccl_communicator.h"
#endif

namespace infergate {

namespace {

// The GPU of this rank's place on its host, made current. A tensor/expert-parallel group needs one
// GPU per rank (NCCL refuses two ranks on one device); pipeline stages alone may share one.
int take_device(MpiCommunicator& world, int group_size) {
  const LocalRank local = local_rank(world);
  int devices = 0;
  INFERGATE_CUDA_CHECK(cudaGetDeviceCount(&devices));
  if (group_size > 1 && local.size > devices) {
    throw std::invalid_argument(
        "backend cuda: tensor and expert parallelism need one GPU per rank on each host: " +
        std::to_string(local.size) + " ranks on this host, " + std::to_string(devices) +
        " GPUs visible");
  }
  const int device = local.rank % devices;
  INFERGATE_CUDA_CHECK(cudaSetDevice(device));
  return device;
}

cuda::GemmChoice gemm_of(const EngineConfig& c) {
  return c.cuda_gemm == CudaGemm::kInfergate ? cuda::GemmChoice::kInfergate
                                             : cuda::GemmChoice::kCublas;
}

// The group's NCCL communicator, when the stage has more than one rank.
std::unique_ptr<Communicator> nccl_group(MpiCommunicator& group, const RankSetup& setup,
                                         int device) {
  if (group.size() == 1) return nullptr;
#ifdef INFERGATE_HAVE_NCCL
  return std::make_unique<NcclCommunicator>(group, CommOptions{setup.config.comm_timeout_s},
                                            device);
#else
  (void)setup;
  (void)device;
  throw std::invalid_argument(
      "backend cuda: tensor and expert parallelism need NCCL, and this build found none "
      "(docs/distributed.md)");
#endif
}

cudaStream_t stream_of(const Communicator* nccl, const cuda::OwnedStream& own) {
#ifdef INFERGATE_HAVE_NCCL
  if (nccl) return static_cast<const NcclCommunicator*>(nccl)->stream();
#endif
  (void)nccl;
  return own.get();
}

class CudaRankModel final : public RankModel {
 public:
  CudaRankModel(RankWeights& part, const RankSetup& setup, MpiCommunicator& world,
                MpiCommunicator& group)
      : device_(take_device(world, group.size())),
        group_(group),
        nccl_(nccl_group(group, setup, device_)),
        collectives_(nccl_ ? std::make_unique<GroupCollectives>(*nccl_, group) : nullptr),
        part_(std::move(part)),
        cache_(part_.weights.config, setup.num_kv_blocks, setup.config.block_size,
               setup.config.kv_cache_dtype),
        // Collectives run on NCCL's stream: the forward queues its kernels there too, in order.
        model_(part_.weights, gemm_of(setup.config), stream_of(nccl_.get(), stream_), {},
               &part_.shard, collectives_.get()) {}
  // The device memory goes back on this rank's GPU, whichever thread lets go of the engine.
  ~CudaRankModel() override { cudaSetDevice(device_); }

  float* stage_hidden(int64_t num_tokens) override {
    const size_t need = size_t(num_tokens * part_.weights.config.hidden_size);
    if (hidden_.size() < need) hidden_.resize(need);
    return hidden_.data();
  }

  std::vector<float> run_stage(const BatchInput& mb, bool first, bool last) override {
    INFERGATE_CUDA_CHECK(cudaSetDevice(device_));
    float* hidden = stage_hidden(mb.num_tokens());
    return model_.run_stage(mb, cache_, first ? nullptr : hidden, last ? nullptr : hidden);
  }

  const Communicator& group() const override { return nccl_ ? *nccl_ : group_; }
  int64_t expert_tokens() const override { return model_.expert_tokens(); }

  MemoryLedger memory() const override { return model_.memory(cache_); }

 private:
  int device_;
  MpiCommunicator& group_;
  std::unique_ptr<Communicator> nccl_;
  std::unique_ptr<GroupCollectives> collectives_;
  cuda::OwnedStream stream_;  // the forward's when there is no NCCL group
  RankWeights part_;
  cuda::DeviceKvCache cache_;
  cuda::CudaForward model_;
  std::vector<float> hidden_;  // the stage's hidden states on the host
};

void check_cuda_here(const ModelWeights&, const EngineConfig&) {
  std::string why;
  if (cuda::cuda_device_count(&why) == 0) {
    throw std::runtime_error("backend \"cuda\": no CUDA device is usable here (" + why +
                             "); use backend \"cpu\" on this machine");
  }
}

}  // namespace

void register_cuda_rank_model() {
  register_rank_model(
      Backend::kCuda,
      [](RankWeights& part, const ParallelLayout&, const RankSetup& setup, MpiCommunicator& world,
         MpiCommunicator& group) {
        return std::make_unique<CudaRankModel>(part, setup, world, group);
      },
      check_cuda_here);
}

}  // namespace infergate
