// The workload file a router target's replicas serve: `infergate serve --workload FILE` takes its
// model and engine config from a workload's engine target, so the replicas run exactly the engine
// an engine target of the same model and engine would. Written to a private temporary folder,
// removed with the object.
#pragma once

#include <string>

#include "bench/workload/workload.h"

namespace infergate {

class ReplicaWorkloadFile {
 public:
  // Throws std::runtime_error when the file cannot be written.
  explicit ReplicaWorkloadFile(const TargetSpec& router_target);
  ~ReplicaWorkloadFile();
  ReplicaWorkloadFile(const ReplicaWorkloadFile&) = delete;
  ReplicaWorkloadFile& operator=(const ReplicaWorkloadFile&) = delete;

  const std::string& path() const { return path_; }

 private:
  std::string dir_, path_;
};

// The executable running now (/proc/self/exe): the router target starts `infergate router` from
// the same build that runs the workload.
std::string self_executable();

}  // namespace infergate
