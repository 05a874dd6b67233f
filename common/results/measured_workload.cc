#include "common/results/measured_workload.h"

#include <filesystem>

#include "common/util/fnv1a.h"

namespace infergate {

namespace {

void relativize(nlohmann::json& doc, const char* pointer, const std::string& base_dir) {
  const nlohmann::json::json_pointer ptr(pointer);
  if (base_dir.empty() || !doc.contains(ptr) || !doc[ptr].is_string()) return;
  const std::filesystem::path p(doc[ptr].get<std::string>());
  if (p.is_absolute()) doc[ptr] = p.lexically_relative(base_dir).generic_string();
}

}  // namespace

nlohmann::json measured_workload(nlohmann::json resolved) {
  for (const char* field : {"name", "description", "overrides", "repetitions", "record_requests"}) {
    resolved.erase(field);
  }
  // An imported file's provenance: which file, which of its runs, and the notes on what it
  // lacked (infergate import, common/imports/); the tool, its version and its settings stay.
  if (const auto it = resolved.find("imported"); it != resolved.end() && it->is_object()) {
    for (const char* field : {"source_file", "run", "notes"}) it->erase(field);
  }
  return resolved;
}

std::string measured_workload_hash(const nlohmann::json& resolved, const std::string& base_dir) {
  nlohmann::json measured = measured_workload(resolved);
  if (measured.is_object()) {
    for (const char* path : {"/dataset/path", "/target/model/gguf", "/target/model/safetensors",
                             "/quality/text", "/structured_output/path", "/target/model",
                             "/target/hardware", "/target/calibration", "/target/tokenizer"}) {
      relativize(measured, path, base_dir);
    }
  }
  return "fnv1a64:" + fnv1a64_hex(measured.dump());
}

}  // namespace infergate
