// A parsed Workload written back as JSON in canonical form: every field that applies, defaults
// filled in, nothing that does not apply (no `rate` in a closed loop), numbers typed by the
// field. Equal semantics give equal JSON, so this is what results record and what is hashed.
// parse_workload() accepts it back unchanged.
#pragma once

#include <nlohmann/json.hpp>

#include "bench/workload/workload.h"

namespace infergate {

nlohmann::json workload_to_json(const Workload& workload);

nlohmann::json length_distribution_to_json(const LengthDistribution& dist);
nlohmann::json model_source_to_json(const ModelSource& model);

}  // namespace infergate
