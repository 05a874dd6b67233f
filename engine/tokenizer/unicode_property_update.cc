#include "engine/tokenizer/unicode_property_update.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <unicode/uniset.h>

#include <cstdio>
#include <map>
#include <mutex>

namespace infergate {

namespace {

// "14.0" from PCRE2's "14.0.0".
std::string pcre2_unicode_version() {
  char version[32] = {};
  pcre2_config(PCRE2_CONFIG_UNICODE_VERSION, version);
  std::string v(version);
  const size_t second_dot = v.find('.', v.find('.') + 1);
  return second_dot == std::string::npos ? v : v.substr(0, second_dot);
}

// The ranges, as class items, of what ICU classes as `name` past PCRE2's Unicode version.
std::string newer_ranges(const std::string& name) {
  static std::mutex mutex;
  static std::map<std::string, std::string> cache;
  const std::lock_guard<std::mutex> lock(mutex);
  const auto hit = cache.find(name);
  if (hit != cache.end()) return hit->second;
  UErrorCode status = U_ZERO_ERROR;
  const std::string spec = "[[:" + name + ":]-[:Age=" + pcre2_unicode_version() + ":]]";
  const icu::UnicodeSet set(icu::UnicodeString::fromUTF8(spec), status);
  std::string items;
  if (U_SUCCESS(status)) {
    char range[40];
    for (int32_t i = 0; i < set.getRangeCount(); ++i) {
      std::snprintf(range, sizeof range, "\\x{%X}-\\x{%X}", set.getRangeStart(i),
                    set.getRangeEnd(i));
      items += range;
    }
  }
  return cache[name] = items;
}

}  // namespace

std::string with_icu_unicode_properties(const std::string& pattern) {
  std::string out;
  out.reserve(pattern.size());
  bool in_class = false;
  for (size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\' && i + 1 < pattern.size()) {
      const size_t close = pattern.find('}', i);
      if (pattern.compare(i + 1, 2, "p{") == 0 && close != std::string::npos) {
        const std::string property = pattern.substr(i, close + 1 - i);
        const std::string extra = newer_ranges(pattern.substr(i + 3, close - i - 3));
        out += extra.empty() ? property
               : in_class    ? property + extra
                             : "[" + property + extra + "]";
        i = close;
      } else {
        out.append(pattern, i, 2);  // an escape: its character is never a class bracket
        ++i;
      }
      continue;
    }
    if (!in_class && c == '[') {
      in_class = true;
      out += c;
      if (i + 1 < pattern.size() && pattern[i + 1] == '^') out += pattern[++i];
      if (i + 1 < pattern.size() && pattern[i + 1] == ']') out += pattern[++i];  // a literal ]
      continue;
    }
    if (in_class && c == '[' && i + 1 < pattern.size() && pattern[i + 1] == ':') {
      const size_t end = pattern.find(":]", i + 2);  // a POSIX class such as [:alpha:]
      if (end != std::string::npos) {
        out.append(pattern, i, end + 2 - i);
        i = end + 1;
        continue;
      }
    }
    if (in_class && c == ']') in_class = false;
    out += c;
  }
  return out;
}

}  // namespace infergate
