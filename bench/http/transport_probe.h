// The transport's own cost before a run: a few cheap GETs (the server's /health) timed one by
// one, each on a fresh connection as a new request's would be. What is left of a difference
// between the client's and the server's TTFT once this is taken out is not the network.
#pragma once

#include <string>

#include "common/http/http_access.h"
#include "common/http/http_url.h"

namespace infergate {

struct TransportProbe {
  std::string path;     // what was asked for
  int round_trips = 0;  // that answered 200
  double rtt_p50_ms = 0, rtt_p95_ms = 0;
  std::string failure;  // the first failed GET's error, "" if none
};

// `count` GETs of `path`, each within timeout_s; failures are skipped (and the first one kept).
TransportProbe probe_transport(const HttpUrl& url, const std::string& path,
                               const HttpAccess& access, int count, double timeout_s);

}  // namespace infergate
