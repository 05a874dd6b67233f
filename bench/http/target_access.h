// What an openai target's requests carry beyond the URL, made when the run starts: the API key
// ($OPENAI_API_KEY), the workload's headers with their ${NAME} references read from the
// environment, and, for an https:// URL, the TLS context (verification as target.tls says).
#pragma once

#include "bench/workload/workload.h"
#include "common/http/http_access.h"

namespace infergate {

// Throws std::runtime_error naming the workload field: a header naming an unset variable or
// expanding to a value that cannot be sent, an Authorization header beside $OPENAI_API_KEY, a
// CA file that holds no certificate.
HttpAccess target_access(const TargetSpec& target);

}  // namespace infergate
