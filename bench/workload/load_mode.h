// How a workload sends its requests (load.mode, docs/workload-schema.md): the one enum every
// part of the harness branches on, and its names in the workload file.
#pragma once

#include <string>
#include <vector>

namespace infergate {

enum class LoadMode {
  kClosed,    // N users, each sending its next request the moment its previous one ends
  kOpen,      // an arrival process, whatever the target is doing
  kTrace,     // the trace dataset's own times
  kSessions,  // N users, each holding conversations of a sessions dataset turn by turn
};

// The name in a workload file: "closed", "open", "trace" or "sessions".
const std::string& load_mode_name(LoadMode mode);
// Every name, in the enum's order (what the parser allows).
const std::vector<std::string>& load_mode_names();
// Throws std::invalid_argument naming the allowed values for any other name.
LoadMode load_mode_from_name(const std::string& name);

}  // namespace infergate
