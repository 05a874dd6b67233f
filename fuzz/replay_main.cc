// A main() for a libFuzzer target built without libFuzzer (g++, the normal test suite): feeds
// every file under the given directories (or the given files) to LLVMFuzzerTestOneInput once.
// A finding aborts, so the process fails; a directory that does not exist holds no inputs yet
// (fuzz/regressions/<target>/ appears with the first finding) and is reported as such.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> inputs_under(const fs::path& path) {
  std::vector<fs::path> files;
  if (fs::is_regular_file(path)) return {path};
  for (const auto& entry : fs::recursive_directory_iterator(path)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());  // a stable order makes a failure reproducible
  return files;
}

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s DIR|FILE...\n", argv[0]);
    return 2;
  }
  size_t total = 0;
  for (int a = 1; a < argc; ++a) {
    const fs::path path = argv[a];
    if (!fs::exists(path)) {
      std::printf("%s: absent, 0 inputs\n", argv[a]);
      continue;
    }
    const std::vector<fs::path> files = inputs_under(path);
    for (const fs::path& file : files) {
      std::fprintf(stderr, "%s\n", file.c_str());  // names the input before a finding aborts
      const std::string bytes = read_bytes(file);
      LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
    }
    std::printf("%s: %zu inputs\n", argv[a], files.size());
    total += files.size();
  }
  std::printf("replayed %zu inputs without a finding\n", total);
  return 0;
}
