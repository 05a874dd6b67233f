#include "bench/targets/replica_workload_file.h"

#include <unistd.h>

#include <filesystem>
#include <stdexcept>

#include "bench/workload/workload_json.h"
#include "common/io/json_file.h"

namespace infergate {

namespace fs = std::filesystem;

ReplicaWorkloadFile::ReplicaWorkloadFile(const TargetSpec& router_target) {
  std::string dir = (fs::temp_directory_path() / "infergate-replicas-XXXXXX").string();
  if (::mkdtemp(dir.data()) == nullptr) {
    throw std::runtime_error("cannot make a temporary folder for the replicas' workload file");
  }
  dir_ = dir;
  path_ = dir_ + "/replica.json";
  Workload w;
  w.name = "router-replica";
  w.description = "what each replica of a router target serves (written by the harness)";
  w.target = router_target;
  w.target.type = "engine";
  if (w.target.model.kind != "synthetic") w.target.model.path = fs::absolute(w.target.model.path);
  w.load.num_requests = 1;  // unused by serve; a workload needs one
  write_json_atomically(workload_to_json(w), path_);
}

ReplicaWorkloadFile::~ReplicaWorkloadFile() {
  std::error_code ignored;
  fs::remove_all(dir_, ignored);
}

std::string self_executable() {
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw std::runtime_error("cannot find the running executable: " + ec.message());
  return exe.string();
}

}  // namespace infergate
