// Reading and writing whole JSON documents: reads name the file and the parse position on
// failure; writes are atomic (temporary file + rename), so a reader never sees half a file.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace infergate {

// A file that is missing, unreadable or not JSON; the message names the file.
class JsonFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads and parses `path` (// and /* */ comments allowed); throws JsonFileError ("<path>: no such
// file", "<path>: not JSON at byte N: ...").
nlohmann::json read_json_file(const std::string& path);
// Writes `doc` (indented) to `path` atomically, creating parent directories.
void write_json_atomically(const nlohmann::json& doc, const std::string& path);
// Writes `text` to `path` atomically, creating parent directories.
void write_text_atomically(const std::string& text, const std::string& path);

}  // namespace infergate
