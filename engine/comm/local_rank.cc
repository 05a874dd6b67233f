#include "engine/comm/local_rank.h"

#include <unistd.h>

#include <cstdint>
#include <stdexcept>
#include <vector>

#include "common/util/fnv1a.h"

namespace infergate {

namespace {

int64_t host_name_hash() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  return static_cast<int64_t>(fnv1a64(name, kFnv1a64ShortBasis));
}

}  // namespace

LocalRank local_rank(Communicator& comm) {
  if (comm.space() != MemorySpace::kHost) {
    throw std::invalid_argument(
        std::string("local_rank needs a communicator on host memory, not ") + comm.backend());
  }
  const std::vector<int64_t> mine = {host_name_hash()};
  std::vector<int64_t> all(static_cast<size_t>(comm.size()));
  comm.all_gather(mine, all);
  LocalRank local{0, 0};
  for (int r = 0; r < comm.size(); ++r) {
    if (all[static_cast<size_t>(r)] != mine[0]) continue;
    if (r < comm.rank()) ++local.rank;
    ++local.size;
  }
  return local;
}

}  // namespace infergate
