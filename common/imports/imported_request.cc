#include "common/imports/imported_request.h"

#include <algorithm>

namespace infergate {

namespace {

constexpr size_t kMaxClassChars = 80;     // an error class is the message's first line, cut
constexpr size_t kMaxMessageChars = 500;  // the first message kept of each class

std::string error_class_of(const std::string& error) {
  std::string first_line = error.substr(0, error.find('\n'));
  if (first_line.empty()) first_line = "error (no message)";
  if (first_line.size() > kMaxClassChars) first_line = first_line.substr(0, kMaxClassChars) + "...";
  return first_line;
}

// The failed requests by class, most frequent first (first seen first among equals).
std::vector<ErrorClass> error_classes(const std::vector<ImportedRequest>& requests) {
  std::vector<ErrorClass> classes;
  for (const ImportedRequest& r : requests) {
    if (r.ok || r.aborted) continue;
    const std::string name = error_class_of(r.error);
    auto it = std::find_if(classes.begin(), classes.end(),
                           [&](const ErrorClass& c) { return c.name == name; });
    if (it == classes.end()) {
      it = classes.insert(classes.end(), {name, 0, r.error.substr(0, kMaxMessageChars)});
    }
    ++it->count;
  }
  std::stable_sort(classes.begin(), classes.end(),
                   [](const ErrorClass& a, const ErrorClass& b) { return a.count > b.count; });
  return classes;
}

// Our ITL has one gap per token: a chunk of m tokens gives its gap and m - 1 gaps of 0. Where a
// request's chunks are fewer than its tokens, those zeros are added; the multiset of gaps (all
// that the pooled distribution sees) is then exactly ours.
void add_itl(const ImportedRun& run, const std::vector<ImportedRequest>& requests,
             std::vector<double>& itl, std::vector<std::string>& notes) {
  int64_t padded = 0, over = 0, zeros = 0;
  for (const ImportedRequest& r : requests) {
    if (!r.ok) continue;
    const int64_t gaps = int64_t(r.gaps_ms->size());
    const int64_t wanted = std::max<int64_t>(r.output_tokens - 1, 0);
    itl.insert(itl.end(), r.gaps_ms->begin(), r.gaps_ms->end());
    if (gaps < wanted) {
      ++padded;
      zeros += wanted - gaps;
      itl.insert(itl.end(), size_t(wanted - gaps), 0.0);
    }
    over += gaps > wanted;
  }
  if (padded > 0) {
    notes.push_back("itl_ms: " + std::to_string(padded) + " requests streamed fewer chunks than " +
                    "tokens; " + std::to_string(zeros) + " gaps of 0 ms were added for the " +
                    "tokens that shared a chunk, as our per-token ITL counts them");
  }
  if (over > 0) {
    notes.push_back("itl_ms: " + std::to_string(over) + " requests have more chunk gaps than " +
                    "output tokens - 1 (empty chunks, or " + run.tool +
                    " counted tokens with another tokenizer); their chunk gaps are used as they "
                    "are");
  }
}

void set_counts(const std::vector<ImportedRequest>& requests, ImportedRun& run) {
  RunSummary& s = run.summary;
  s.num_requests = int64_t(requests.size());
  s.num_completed = std::count_if(requests.begin(), requests.end(),
                                  [](const ImportedRequest& r) { return r.ok; });
  s.num_aborted = std::count_if(requests.begin(), requests.end(),
                                [](const ImportedRequest& r) { return !r.ok && r.aborted; });
  s.num_errors = s.num_requests - s.num_completed - s.num_aborted;
  s.error_classes = error_classes(requests);
  run.measured.insert({"num_requests", "num_completed", "num_errors", "num_aborted"});
}

}  // namespace

void summarize_requests(const std::vector<ImportedRequest>& requests, ImportedRun& run) {
  set_counts(requests, run);
  std::vector<double> ttft, tpot, e2e, input, output, lag, itl;
  bool all_gaps = true;
  for (const ImportedRequest& r : requests) {
    if (r.send_lag_ms) lag.push_back(*r.send_lag_ms);
    if (!r.ok) continue;
    if (r.ttft_ms) ttft.push_back(*r.ttft_ms);
    if (r.e2e_ms) e2e.push_back(*r.e2e_ms);
    if (r.tpot_ms && r.output_tokens >= 2) {
      tpot.push_back(*r.tpot_ms);
    } else if (r.ttft_ms && r.e2e_ms && r.output_tokens >= 2) {
      tpot.push_back((*r.e2e_ms - *r.ttft_ms) / double(r.output_tokens - 1));
    }
    input.push_back(double(r.input_tokens));
    output.push_back(double(r.output_tokens));
    all_gaps = all_gaps && r.gaps_ms.has_value();
  }
  run.distributions["ttft_ms"] = stats_of_samples(ttft);
  run.distributions["tpot_ms"] = stats_of_samples(tpot);
  run.distributions["e2e_ms"] = stats_of_samples(e2e);
  run.distributions["input_tokens"] = stats_of_samples(input);
  run.distributions["output_tokens"] = stats_of_samples(output);
  if (!lag.empty()) run.distributions["send_lag_ms"] = stats_of_samples(lag);
  if (all_gaps) {
    add_itl(run, requests, itl, run.notes);
    run.distributions["itl_ms"] = stats_of_samples(itl);
  }
}

}  // namespace infergate
