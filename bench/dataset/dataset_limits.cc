#include "bench/dataset/dataset_limits.h"

#include <string>

#include "bench/workload/workload_error.h"

namespace infergate {

namespace {

std::string n(int64_t x) { return std::to_string(x); }

}  // namespace

void check_session_lengths(const std::vector<BenchSession>& sessions, const Workload& w,
                           const RequestLimit& limit) {
  if (limit.max_tokens <= 0) return;
  const int64_t longest = longest_session_tokens(sessions);
  if (longest <= limit.max_tokens) return;
  throw WorkloadError(w.source_path, "$.dataset", "", limit.name,
                      "a session's last turn holds " + n(longest) +
                          " tokens (every message and answer), more than " + limit.name +
                          ": ask for fewer turns or shorter messages");
}

void check_dataset_requests(const std::vector<BenchRequest>& requests, const Workload& w,
                            const RequestLimit& limit) {
  if (limit.max_tokens <= 0) return;
  for (size_t i = 0; i < requests.size(); ++i) {
    const int64_t total = int64_t(requests[i].prompt.size()) + requests[i].max_tokens;
    if (total <= limit.max_tokens) continue;
    throw WorkloadError(w.source_path, "$.dataset", "", limit.name,
                        "request " + n(int64_t(i)) + " of the dataset has " +
                            n(int64_t(requests[i].prompt.size())) + " prompt + " +
                            n(requests[i].max_tokens) + " output tokens, more than " + limit.name);
  }
}

}  // namespace infergate
