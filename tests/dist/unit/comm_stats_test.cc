// Communication stats: the per-step cost of TP or EP is the difference of two snapshots.
#include <catch2/catch.hpp>

#include "engine/comm/comm_stats.h"

namespace infergate {

TEST_CASE("stats add up per operation and a snapshot difference is one step's share") {
  CommStats s;
  s.record(CommOp::kAllReduce, 4096, 0.001);
  const CommStats before = s;
  s.record(CommOp::kAllReduce, 4096, 0.002);
  s.record(CommOp::kAllToAllV, 100, 0.5);
  const CommStats step = s - before;
  CHECK(step[CommOp::kAllReduce].calls == 1);
  CHECK(step[CommOp::kAllReduce].bytes == 4096);
  CHECK(step[CommOp::kAllReduce].seconds == Approx(0.002));
  CHECK(step[CommOp::kAllToAllV].calls == 1);
  CHECK(s.total().calls == 3);
  CHECK(s.total().bytes == 8292);
}

TEST_CASE("stats as JSON list only the operations used, by their names") {
  CommStats s;
  CHECK(to_json(s) == nlohmann::json::object());
  s.record(CommOp::kSendRecv, 10, 0.25);
  const nlohmann::json j = to_json(s);
  CHECK(j.size() == 1);
  CHECK(j.at("send_recv").at("calls") == 1);
  CHECK(j.at("send_recv").at("bytes") == 10);
  CHECK(j.at("send_recv").at("seconds") == 0.25);
}

}  // namespace infergate
