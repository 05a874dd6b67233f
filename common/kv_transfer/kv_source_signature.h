// The prefill worker's signature on a KvSource: HMAC-SHA-256 (OpenSSL's libcrypto) under the
// secret it shares with the decode workers (kv_transfer_secret.h), over every field but the
// signature. A decode worker checks it before anything in the source reaches UCX, so worker
// addresses, remote keys and addresses can come only from a prefill worker holding the secret,
// never from a client (docs/disaggregation.md, "Trust").
#pragma once

#include <string>
#include <string_view>

#include "common/kv_transfer/kv_source.h"

namespace infergate {

// The signature `source` should carry under `secret` (kKvDigestBytes). `secret` not empty.
std::string kv_source_signature(const KvSource& source, std::string_view secret);

// Whether `source.signature` is that signature (compared in constant time). False for an empty
// secret: without one nothing is trusted.
bool kv_source_signature_ok(const KvSource& source, std::string_view secret);

}  // namespace infergate
