#include "engine/comm/comm_stats.h"

namespace infergate {

void CommStats::record(CommOp op, uint64_t bytes, double seconds) {
  CommOpStats& s = ops_[static_cast<size_t>(op)];
  ++s.calls;
  s.bytes += bytes;
  s.seconds += seconds;
}

CommOpStats CommStats::total() const {
  CommOpStats sum;
  for (const CommOpStats& s : ops_) {
    sum.calls += s.calls;
    sum.bytes += s.bytes;
    sum.seconds += s.seconds;
  }
  return sum;
}

CommStats CommStats::operator-(const CommStats& earlier) const {
  CommStats d;
  for (size_t i = 0; i < kNumCommOps; ++i) {
    d.ops_[i] = {ops_[i].calls - earlier.ops_[i].calls, ops_[i].bytes - earlier.ops_[i].bytes,
                 ops_[i].seconds - earlier.ops_[i].seconds};
  }
  return d;
}

nlohmann::json to_json(const CommStats& stats) {
  nlohmann::json j = nlohmann::json::object();
  for (CommOp op : kAllCommOps) {
    const CommOpStats& s = stats[op];
    if (s.calls == 0) continue;
    j[comm_op_name(op)] = {{"calls", s.calls}, {"bytes", s.bytes}, {"seconds", s.seconds}};
  }
  return j;
}

}  // namespace infergate
