// Reads `load.search` (docs/workload-schema.md, "Capacity search"): its probes give the rate
// (open) or the users (closed) and their size the count, so num_requests, duration_s, rate,
// concurrency, ramp and stop_when are refused beside it.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/workload/json_object_reader.h"
#include "bench/workload/workload.h"

namespace infergate {

// `r` is the load object, `l` the load read so far (its mode). The result's num_requests is
// the probes' size, so everything that sizes a run by it sizes one probe.
LoadSpec read_search_load(JsonObjectReader& r, LoadSpec l);

// A search looks for the load at which the SLO holds: without a bound it has nothing to find.
void check_search_has_slo(const JsonObjectReader& top, const LoadSpec& load, const SloSpec& slo);

// The resolved form of `load.search`, every default filled.
nlohmann::json search_to_json(const CapacitySearchSpec& s, LoadMode mode);

}  // namespace infergate
