// Short, stable names for cache entries: FNV-1a 64 of some bytes, as 16 hex digits
// (common/util/fnv1a.h). Not a
// security boundary, only a way to tell apart inputs that must not share a cached result.
#pragma once

#include <string>
#include <string_view>

namespace infergate {

// 16 lower-case hex digits.
std::string content_hash(std::string_view bytes);
// The hash of a file's bytes; throws std::runtime_error naming the file when it cannot be read
// (InputFileError: not a regular file, or over kMaxWorkloadFileBytes).
std::string file_content_hash(const std::string& path);

}  // namespace infergate
