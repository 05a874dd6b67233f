#include "gates/bisect/content_hash.h"

#include <cstdint>
#include <cstdio>

#include "common/io/input_file.h"

namespace infergate {

std::string content_hash(std::string_view bytes) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (const unsigned char c : bytes) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

std::string file_content_hash(const std::string& path) {
  // The workload file: a regular file of workload size, not a FIFO to wait on.
  return content_hash(read_regular_file(path, kMaxWorkloadFileBytes));
}

}  // namespace infergate
