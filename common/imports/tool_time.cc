#include "common/imports/tool_time.h"

#include <sys/stat.h>

#include <cctype>
#include <cmath>
#include <ctime>

namespace infergate {

namespace {

// Digits at the positions where `pattern` has 'd', the same character elsewhere.
bool matches(const std::string& s, const std::string& pattern) {
  if (s.size() < pattern.size()) return false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const bool digit = std::isdigit(static_cast<unsigned char>(s[i]));
    if (pattern[i] == 'd' ? !digit : s[i] != pattern[i]) return false;
  }
  return true;
}

std::string utc_text(std::time_t t) {
  std::tm tm{};
  if (gmtime_r(&t, &tm) == nullptr) return "";
  char text[32];
  return std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm) ? text : "";
}

}  // namespace

std::string iso_from_compact_local(const std::string& c) {
  if (c.size() != 15 || !matches(c, "dddddddd-dddddd")) return "";
  return c.substr(0, 4) + "-" + c.substr(4, 2) + "-" + c.substr(6, 2) + "T" + c.substr(9, 2) + ":" +
         c.substr(11, 2) + ":" + c.substr(13, 2);
}

std::string iso_from_local_iso(const std::string& iso) {
  return matches(iso, "dddd-dd-ddTdd:dd:dd") ? iso.substr(0, 19) : "";
}

std::string iso_utc_from_epoch(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0 || seconds > 1e11) return "";
  return utc_text(static_cast<std::time_t>(seconds));
}

std::string file_modified_utc(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return "";
  return utc_text(st.st_mtime);
}

}  // namespace infergate
