// An openai target's own request headers (`target.headers`, docs/workload-schema.md "HTTPS and
// headers"): what an auth gateway in front of the server asks for. A value may name environment
// variables as ${NAME}, read when the run starts, so a secret stays out of the workload file and
// of the results file that embeds it.
#pragma once

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "bench/workload/json_object_reader.h"

namespace infergate {

using HeaderList = std::vector<std::pair<std::string, std::string>>;

// The object at `headers` of `target`: names are HTTP tokens, unique ignoring case, and none of
// the headers the client writes itself (Host, Content-Type, ...); values are printable, with
// well-formed ${NAME} references. Throws WorkloadError naming the header's JSON path.
HeaderList read_target_headers(JsonObjectReader& target);

// Whether a header can carry `value`: printable ASCII and tabs only, so nothing can end the
// header early or start another.
bool header_value_printable(const std::string& value);

// `value` with each ${NAME} replaced by lookup(NAME); throws std::invalid_argument naming the
// variable when lookup gives null, or when a reference is malformed.
std::string expand_environment(const std::string& value,
                               const std::function<const char*(const std::string&)>& lookup);

}  // namespace infergate
