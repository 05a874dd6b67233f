// An ImportedRun as our results document (schema "infergate.results/v1", docs/results-schema.md):
// one point with one repetition whose summary holds every metric of the registry. What the tool
// measured is written in our units; a number it did not measure is null, a statistic it did not
// write is left out of its distribution (absent for the gates), and a count, fraction or flag it
// did not measure (which cannot be null) keeps the harness's neutral value with a note. The
// workload describes the source (tool, version, file, settings, notes) and the hash is
// measured_workload_hash of it, so parse_results() accepts the document as written.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "common/imports/imported_run.h"

namespace infergate {

// The run's share of failed requests above which error_share_exceeded is set: `infergate run`'s
// default --max-error-share.
inline constexpr double kImportMaxErrorShare = 0.01;

// Throws ImportError (naming `source_file`) when the run's counts do not add up.
nlohmann::json imported_results_document(ImportedRun run, const std::string& source_file);

}  // namespace infergate
