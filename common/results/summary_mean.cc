#include "common/results/summary_mean.h"

namespace infergate {

namespace {

// Averages numbers; recurses into objects; keeps the first value of anything else.
nlohmann::json mean_json(const std::vector<const nlohmann::json*>& values) {
  // An optional distribution (null where not measured) averages the repetitions that have one.
  const nlohmann::json* shape = values.front();
  for (const nlohmann::json* v : values) {
    if (!v->is_null()) {
      shape = v;
      break;
    }
  }
  const nlohmann::json& first = *shape;
  if (first.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (const auto& [key, _] : first.items()) {
      std::vector<const nlohmann::json*> children;
      for (const nlohmann::json* v : values) {
        if (v->contains(key)) children.push_back(&(*v)[key]);
      }
      out[key] = mean_json(children);
    }
    return out;
  }
  if (first.is_boolean()) {  // a flag holds if it held in any repetition
    bool any = false;
    for (const nlohmann::json* v : values) any = any || (v->is_boolean() && v->get<bool>());
    return any;
  }
  // Numbers average over the repetitions that have one: an optional metric (null where it was
  // not measured, e.g. peak_gpu_memory_bytes without NVML) is null only if null in every one.
  double sum = 0;
  int n = 0;
  for (const nlohmann::json* v : values) {
    if (!v->is_number()) continue;
    sum += v->get<double>();
    ++n;
  }
  if (n == 0) return first;
  return sum / double(n);
}

}  // namespace

nlohmann::json mean_of_summaries(const std::vector<nlohmann::json>& summaries) {
  if (summaries.empty()) return nlohmann::json::object();
  std::vector<const nlohmann::json*> ptrs;
  for (const nlohmann::json& s : summaries) ptrs.push_back(&s);
  return mean_json(ptrs);
}

}  // namespace infergate
