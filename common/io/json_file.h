// Reading and writing whole JSON documents: reads name the file and the parse position on
// failure; writes are atomic (temporary file + rename), so a reader never sees half a file.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

namespace infergate {

// A file that is missing, not a regular file, too large, unreadable or not JSON; the message
// names the file.
class JsonFileError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Reads and parses `path` (// and /* */ comments allowed), at most kMaxJsonFileBytes and
// kMaxJsonDepth levels; throws JsonFileError ("<path>: no such file", "<path>: is a directory,
// expected a regular file", "<path>: not JSON at line 3, column 7 (byte offset 41): ...").
nlohmann::json read_json_file(const std::string& path);
// Checks now, before a long run, that write_text_atomically() will be able to write `path`: it
// creates the parent directories and a temporary file beside `path` as the write will, then
// removes the temporary file. Throws std::runtime_error naming `path` and why ("it is a
// directory", "cannot create a temporary file beside it: Permission denied", ...).
void check_writable(const std::string& path);
// Writes `doc` (indented) to `path` atomically, creating parent directories.
void write_json_atomically(const nlohmann::json& doc, const std::string& path);
// Writes `text` to `path` atomically, creating parent directories (AtomicFile).
void write_text_atomically(const std::string& text, const std::string& path);

}  // namespace infergate
