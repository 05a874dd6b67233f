// What one render spends and owns: the step counter and evaluation depth checked against
// Limits, the arena of namespaces (the one mutable value kind: owning them here means values
// never form an ownership cycle), and the constructors of values that check sizes and nesting
// before allocating. Limit errors are EvalErrors naming the limit.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "engine/tokenizer/jinja/limits.h"
#include "engine/tokenizer/jinja/value.h"

namespace infergate::jinja {

class RenderState {
 public:
  explicit RenderState(const Limits& limits) : limits_(limits) {}
  RenderState(const RenderState&) = delete;
  RenderState& operator=(const RenderState&) = delete;

  const Limits& limits() const { return limits_; }

  void charge(int64_t steps);
  // Work proportional to bytes: one step per 16 bytes.
  void charge_bytes(size_t bytes) { charge(1 + static_cast<int64_t>(bytes / 16)); }
  void check_string(size_t bytes) const;
  void check_collection(size_t count) const;
  void check_depth(int depth) const;

  // One more level of evaluation (a node inside a node, a macro call); leave() undoes it.
  void enter() {
    check_depth(depth_ + 1);
    ++depth_;
  }
  void leave() { --depth_; }

  Value make_string(std::string text);
  Value make_array(std::vector<Value> items, Value::Kind kind = Value::Kind::kArray);
  Value make_object(Mapping map, Value::Kind kind = Value::Kind::kObject);
  Value make_namespace(Mapping map);
  Value make_builtin(std::string name, Builtin builtin, Value self = {});

 private:
  Limits limits_;
  int64_t steps_ = 0;
  int depth_ = 0;
  std::deque<Namespace> namespaces_;
};

// Scoped RenderState::enter / leave.
class DepthGuard {
 public:
  explicit DepthGuard(RenderState& state) : state_(state) { state_.enter(); }
  ~DepthGuard() { state_.leave(); }
  DepthGuard(const DepthGuard&) = delete;
  DepthGuard& operator=(const DepthGuard&) = delete;

 private:
  RenderState& state_;
};

}  // namespace infergate::jinja
