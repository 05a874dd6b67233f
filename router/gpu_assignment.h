// `infergate router --gpus-per-replica N`: which GPUs each replica it starts may see, handed to
// the replica as CUDA_VISIBLE_DEVICES (the CUDA runtime then numbers them 0..N-1 inside it, so
// the replica's device 0 is its first assigned GPU). Replicas take the GPUs round-robin: replica
// i gets GPUs i*N .. i*N+N-1, wrapping around the list, so more replicas than GPUs share them.
#pragma once

#include <string>
#include <vector>

namespace infergate {

// The GPUs this process may hand out: its own CUDA_VISIBLE_DEVICES when set (ids or UUIDs, as
// written), else the NVIDIA device files /dev/nvidia0, /dev/nvidia1, ... (by number). Empty when
// neither names one.
std::vector<std::string> visible_gpus();

// The CUDA_VISIBLE_DEVICES value of replica `replica` (0-based over every replica the router
// starts): `per_replica` GPUs of `gpus`, round-robin. Throws std::invalid_argument naming
// --gpus-per-replica when `gpus` is empty or per_replica exceeds it.
std::string replica_gpus(const std::vector<std::string>& gpus, int per_replica, int replica);

}  // namespace infergate
