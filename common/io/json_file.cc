#include "common/io/json_file.h"

#include <filesystem>
#include <stdexcept>

#include "common/io/atomic_file.h"
#include "common/io/input_file.h"
#include "common/io/json_text.h"

namespace infergate {

nlohmann::json read_json_file(const std::string& path) {
  std::string text;
  try {
    text = read_regular_file(path, kMaxJsonFileBytes);
  } catch (const InputFileError& e) {
    throw JsonFileError(e.what());
  }
  try {
    return parse_json_text(text, /*ignore_comments=*/true);
  } catch (const JsonTextError& e) {
    throw JsonFileError(path + ": not JSON " + e.what());
  }
}

namespace {

// The write creates missing parent directories; a parent that is a file is named as such.
void make_parent_directories(const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  std::error_code ec;
  if (parent.empty() || std::filesystem::create_directories(parent, ec) || !ec) return;
  throw std::runtime_error(path + ": cannot create its directory " + parent.string() + ": " +
                           ec.message());
}

}  // namespace

void check_writable(const std::string& path) {
  make_parent_directories(path);
  const AtomicFile probe(path);  // its destructor removes the temporary file
}

void write_text_atomically(const std::string& text, const std::string& path) {
  make_parent_directories(path);
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

void write_json_atomically(const nlohmann::json& doc, const std::string& path) {
  write_text_atomically(doc.dump(2) + "\n", path);
}

}  // namespace infergate
