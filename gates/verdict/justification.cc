#include "gates/verdict/justification.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace infergate {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = char(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// The names on the file's "justifies:" lines, separated by commas or spaces.
bool names_rule(const std::string& text, const GateRule& rule) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t start = line.find_first_not_of(" \t-*>#");
    if (start == std::string::npos || lower(line.substr(start, 10)) != "justifies:") continue;
    std::string names = line.substr(start + 10);
    std::replace(names.begin(), names.end(), ',', ' ');
    std::istringstream words(names);
    for (std::string w; words >> w;) {
      w.erase(std::remove(w.begin(), w.end(), '`'), w.end());
      if (w == rule.name || w == rule.metric.text) return true;
    }
  }
  return false;
}

bool inside(const fs::path& file, const fs::path& root) {
  const auto [root_end, _] = std::mismatch(root.begin(), root.end(), file.begin(), file.end());
  return root_end == root.end();
}

}  // namespace

JustificationCheck check_justification(const GateRule& rule, const std::string& root) {
  const std::string& name = rule.justification_file;
  const std::string how = " (with a line \"justifies: " + rule.name + "\" and why)";
  const fs::path path = fs::path(root) / name;
  std::error_code ec;
  if (!fs::exists(path, ec)) return {false, "needs a justification: add " + name + how};
  const fs::path real_root = fs::weakly_canonical(fs::absolute(root), ec);
  const fs::path real_file = fs::weakly_canonical(fs::absolute(path), ec);
  if (ec || !inside(real_file, real_root)) {
    return {false, name + " resolves to " + real_file.string() + ", outside " + real_root.string() +
                       ": a justification must be part of the change"};
  }
  if (!fs::is_regular_file(real_file, ec)) return {false, name + " is not a regular file"};
  if (fs::file_size(real_file, ec) > kMaxJustificationBytes) {
    return {false, name + " is larger than " + std::to_string(kMaxJustificationBytes / 1024) +
                       " KiB: not a justification"};
  }
  std::ifstream in(real_file, std::ios::binary);
  std::string text(kMaxJustificationBytes, '\0');
  in.read(text.data(), std::streamsize(text.size()));
  text.resize(size_t(in.gcount()));
  if (!names_rule(text, rule)) {
    return {false, name + " does not say it justifies this rule: add a line \"justifies: " +
                       rule.name + "\""};
  }
  return {true, "justified by " + name};
}

}  // namespace infergate
