// The run dates other tools write, as our created_at (ISO 8601 to the second). vLLM and AIPerf
// write local time without a zone, so theirs stay without the "Z" our UTC stamps carry; GuideLLM
// writes Unix seconds, which are UTC. An unreadable date gives "" (the run has no date).
#pragma once

#include <string>

namespace infergate {

// vLLM's "20260812-141503" -> "2026-08-12T14:15:03" (local time, zone unknown).
std::string iso_from_compact_local(const std::string& compact);
// AIPerf's "2026-08-12T14:05:03.118690" -> "2026-08-12T14:05:03" (local time, zone unknown).
std::string iso_from_local_iso(const std::string& iso);
// Unix seconds -> "2026-08-12T12:05:03Z".
std::string iso_utc_from_epoch(double seconds);
// The file's modification time, "2026-08-12T12:05:03Z"; "" when it cannot be read.
std::string file_modified_utc(const std::string& path);

}  // namespace infergate
