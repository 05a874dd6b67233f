#include "bench/results/json_file.h"

#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/results/atomic_file.h"

namespace infergate {

nlohmann::json read_json_file(const std::string& path) {
  if (!std::filesystem::exists(path)) throw JsonFileError(path + ": no such file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw JsonFileError(path + ": cannot open for reading");
  std::stringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str(), nullptr, true, /*ignore_comments=*/true);
  } catch (const nlohmann::json::parse_error& e) {
    throw JsonFileError(path + ": not JSON at byte " + std::to_string(e.byte) + ": " + e.what());
  }
}

void write_text_atomically(const std::string& text, const std::string& path) {
  const std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (!parent.empty()) std::filesystem::create_directories(parent);
  AtomicFile file(path);
  file.write(text);
  file.commit();
}

void write_json_atomically(const nlohmann::json& doc, const std::string& path) {
  write_text_atomically(doc.dump(2) + "\n", path);
}

}  // namespace infergate
