#include "common/util/safe_file_name.h"

#include <cctype>
#include <cstdio>

#include "common/util/fnv1a.h"

namespace infergate {

namespace {

constexpr size_t kMaxChars = 100;

bool allowed(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_' || c == '-';
}

bool already_safe(const std::string& name) {
  if (name.empty() || name.size() > kMaxChars || name.front() == '.') return false;
  for (const char c : name) {
    if (!allowed(c)) return false;
  }
  return true;
}

}  // namespace

std::string safe_file_name(const std::string& name) {
  if (already_safe(name)) return name;
  std::string out;
  for (const char c : name.substr(0, kMaxChars)) out += allowed(c) ? c : '-';
  for (size_t i = 0; i < out.size() && out[i] == '.'; ++i) out[i] = '_';
  char hash[16];
  std::snprintf(hash, sizeof(hash), "%08x", static_cast<unsigned>(fnv1a64(name) & 0xffffffffu));
  return (out.empty() ? std::string("unnamed") : out) + "-" + hash;
}

}  // namespace infergate
