#include "gates/bisect/content_hash.h"

#include "common/io/input_file.h"
#include "common/util/fnv1a.h"

namespace infergate {

std::string content_hash(std::string_view bytes) { return fnv1a64_hex(bytes); }

std::string file_content_hash(const std::string& path) {
  // The workload file: a regular file of workload size, not a FIFO to wait on.
  return content_hash(read_regular_file(path, kMaxWorkloadFileBytes));
}

}  // namespace infergate
