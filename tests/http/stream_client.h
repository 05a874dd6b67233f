// Many streamed completions at once against one server, each answer kept whole (token ids,
// text, finish, usage, every error): what the router tests compare between runs. One event
// loop, one coroutine and connection per request, on our own HTTP client pieces.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace infergate::test {

struct StreamAnswer {
  std::vector<int32_t> ids;
  std::string text;
  std::string finish_reason;
  std::vector<std::string> chunk_ids;  // each chunk's "id" (one value in a whole stream)
  int usage_completion_tokens = -1;
  bool done = false;  // [DONE] arrived and the stream ended cleanly
  int status = 0;     // the HTTP status
  std::string error;  // transport failure, error event or status body
};

// POSTs each body to url + path (bodies are whole JSON requests with "stream": true), with at
// most `concurrency` in flight. `on_event(index, events_so_far)` is called after every event
// (the tests kill a replica from it). Bounded by timeout_s in all.
std::vector<StreamAnswer> stream_all(const std::string& url, const std::string& path,
                                     const std::vector<std::string>& bodies, int concurrency,
                                     double timeout_s,
                                     const std::function<void(size_t, int64_t)>& on_event = {});

}  // namespace infergate::test
