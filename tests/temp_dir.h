// A fresh directory under the system's temporary folder for one test, removed with everything in
// it at scope exit.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <set>
#include <string>
#include <system_error>

namespace infergate::testing {

class TempDir {
 public:
  explicit TempDir(const std::string& prefix = "infergate-test") {
    std::string pattern = (std::filesystem::temp_directory_path() / (prefix + "-XXXXXX")).string();
    path_ = ::mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  std::string file(const std::string& name) const { return (path_ / name).string(); }
  const std::filesystem::path& path() const { return path_; }
  // The names of the directory's entries.
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path_)) {
      out.insert(e.path().filename().string());
    }
    return out;
  }

 private:
  std::filesystem::path path_;
};

}  // namespace infergate::testing
