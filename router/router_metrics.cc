#include "router/router_metrics.h"

#include <cstdio>

namespace infergate {

namespace {

void line(std::string& out, const std::string& name, const std::string& labels, double value) {
  char number[40];
  std::snprintf(number, sizeof(number), "%.17g", value);
  out += name;
  if (!labels.empty()) out += "{" + labels + "}";
  out += " ";
  out += number;
  out += "\n";
}

void help(std::string& out, const std::string& name, const char* type, const char* text) {
  out += "# HELP " + name + " " + text + "\n# TYPE " + name + " " + type + "\n";
}

double ratio(uint64_t a, uint64_t b) { return b == 0 ? 0 : double(a) / double(b); }

}  // namespace

void RouterMetrics::answered(int status) {
  if (status < 400) {
    ++ok_;
  } else if (status == 429) {
    ++refused_429_;
  } else if (status == 503) {
    ++unavailable_503_;
  } else if (status >= 500) {
    ++other_5xx_;
  } else {
    ++client_errors_;
  }
}

void RouterMetrics::resumed(double seconds) {
  const int64_t ns = int64_t(seconds * 1e9);
  ++migrations_;
  migration_delay_ns_ += ns;
  int64_t max = migration_delay_max_ns_;
  while (ns > max && !migration_delay_max_ns_.compare_exchange_weak(max, ns)) {
  }
}

void RouterMetrics::prefilled(bool fell_back, int attempts, double seconds, int64_t kv_bytes) {
  ++(fell_back ? prefill_fallbacks_ : prefills_);
  prefill_attempts_ += attempts;
  prefill_ns_ += int64_t(seconds * 1e9);
  prefill_kv_bytes_ += kv_bytes;
}

std::string RouterMetrics::render(const std::vector<ReplicaSnapshot>& replicas, int queued,
                                  const std::vector<ReplicaSnapshot>& prefill) const {
  const std::string p = "infergate_router:";
  std::string out;
  help(out, p + "requests_total", "counter", "Requests answered, by outcome.");
  line(out, p + "requests_total", "outcome=\"ok\"", double(ok_));
  line(out, p + "requests_total", "outcome=\"client_error\"", double(client_errors_));
  line(out, p + "requests_total", "outcome=\"overloaded_429\"", double(refused_429_));
  line(out, p + "requests_total", "outcome=\"unavailable_503\"", double(unavailable_503_));
  line(out, p + "requests_total", "outcome=\"failed_5xx\"", double(other_5xx_));
  help(out, p + "retries_total", "counter",
       "Attempts retried on another replica before any byte reached the client.");
  line(out, p + "retries_total", "", double(retries_));
  help(out, p + "broken_streams_total", "counter",
       "Streams whose replica failed after the client had received part of the answer.");
  line(out, p + "broken_streams_total", "", double(broken_streams_));
  help(out, p + "migrations_total", "counter",
       "Broken streams resumed on another replica from the tokens already relayed.");
  line(out, p + "migrations_total", "", double(migrations_));
  help(out, p + "migrations_failed_total", "counter",
       "Broken streams no replica could resume (the client got an error event).");
  line(out, p + "migrations_failed_total", "", double(migrations_failed_));
  help(out, p + "migration_delay_seconds_sum", "counter",
       "From a stream breaking to the next replica's first event reaching the client, summed.");
  line(out, p + "migration_delay_seconds_sum", "", double(migration_delay_ns_) * 1e-9);
  help(out, p + "migration_delay_seconds_max", "gauge", "The longest migration delay.");
  line(out, p + "migration_delay_seconds_max", "", double(migration_delay_max_ns_) * 1e-9);
  help(out, p + "clients_gone_total", "counter", "Clients that disconnected mid-answer.");
  line(out, p + "clients_gone_total", "", double(clients_gone_));
  help(out, p + "queued_requests", "gauge", "Requests waiting for a replica with room.");
  line(out, p + "queued_requests", "", double(queued));
  help(out, p + "routing_decisions_total", "counter", "Replica choices, by the rule that chose.");
  for (size_t r = 0; r < kReasons; ++r) {
    line(out, p + "routing_decisions_total",
         std::string("reason=\"") + to_string(RouteReason(r)) + "\"", double(reasons_[r]));
  }
  uint64_t matched = 0, best = 0, blocks = 0;
  for (const ReplicaSnapshot& r : replicas) {
    matched += r.counters.matched_blocks;
    best += r.counters.best_matched_blocks;
    blocks += r.counters.prompt_blocks;
  }
  help(out, p + "prefix_hit_rate", "gauge",
       "Prompt blocks expected in the chosen replica's cache (achieved) and in the best healthy "
       "replica's (oracle), over all prompt blocks routed (the router's model of the caches).");
  line(out, p + "prefix_hit_rate", "kind=\"achieved\"", ratio(matched, blocks));
  line(out, p + "prefix_hit_rate", "kind=\"oracle\"", ratio(best, blocks));
  if (!prefill.empty()) {
    help(out, p + "prefills_total", "counter",
         "Prefill phases (disaggregated): KV exported for the decode worker, or fallen back to "
         "the decode worker computing the prompt.");
    line(out, p + "prefills_total", "outcome=\"exported\"", double(prefills_));
    line(out, p + "prefills_total", "outcome=\"fallback\"", double(prefill_fallbacks_));
    help(out, p + "prefill_attempts_total", "counter", "Requests sent to prefill workers.");
    line(out, p + "prefill_attempts_total", "", double(prefill_attempts_));
    help(out, p + "prefill_seconds_sum", "counter",
         "From sending to a prefill worker to its answer, summed over exported prefills.");
    line(out, p + "prefill_seconds_sum", "", double(prefill_ns_) * 1e-9);
    help(out, p + "prefill_kv_bytes_total", "counter", "KV bytes the prefill workers exported.");
    line(out, p + "prefill_kv_bytes_total", "", double(prefill_kv_bytes_));
  }
  // Decode (or colocated) replicas are numbered 0.., prefill workers "prefill-0"..
  const auto per_replica = [&](const char* name, const char* type, const char* text, auto value) {
    help(out, p + name, type, text);
    for (size_t i = 0; i < replicas.size(); ++i) {
      line(out, p + name, "replica=\"" + std::to_string(i) + "\",url=\"" + replicas[i].url + "\"",
           double(value(replicas[i])));
    }
    for (size_t i = 0; i < prefill.size(); ++i) {
      line(out, p + name,
           "replica=\"prefill-" + std::to_string(i) + "\",url=\"" + prefill[i].url + "\"",
           double(value(prefill[i])));
    }
  };
  per_replica("replica_healthy", "gauge", "1 while the replica is in rotation.",
              [](const ReplicaSnapshot& r) { return r.healthy ? 1 : 0; });
  per_replica("replica_outstanding", "gauge", "Requests in flight at the replica.",
              [](const ReplicaSnapshot& r) { return r.outstanding; });
  per_replica("replica_routed_total", "counter", "Attempts sent to the replica.",
              [](const ReplicaSnapshot& r) { return r.counters.routed; });
  per_replica("replica_succeeded_total", "counter", "Attempts the replica answered in full.",
              [](const ReplicaSnapshot& r) { return r.counters.succeeded; });
  per_replica("replica_failed_total", "counter",
              "Attempts that failed at the replica (transport, timeout, 5xx, garbage).",
              [](const ReplicaSnapshot& r) { return r.counters.failed; });
  per_replica("replica_breaker_trips_total", "counter",
              "Times consecutive failures took the replica out of rotation.",
              [](const ReplicaSnapshot& r) { return r.counters.breaker_trips; });
  per_replica("replica_restarts_total", "counter", "Times the supervisor restarted the replica.",
              [](const ReplicaSnapshot& r) { return r.counters.restarts; });
  per_replica("replica_prefix_hit_rate", "gauge",
              "Achieved prefix hit rate of the requests routed to the replica.",
              [](const ReplicaSnapshot& r) {
                return ratio(r.counters.matched_blocks, r.counters.prompt_blocks);
              });
  return out;
}

}  // namespace infergate
