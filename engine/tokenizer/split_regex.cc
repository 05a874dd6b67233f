#include "engine/tokenizer/split_regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <stdexcept>

#include "engine/tokenizer/unicode_property_update.h"
#include "engine/tokenizer/utf8.h"

namespace infergate {

struct SplitRegex::Compiled {
  pcre2_code* code = nullptr;
  ~Compiled() { pcre2_code_free(code); }
};

namespace {

std::string pcre2_message(int code) {
  PCRE2_UCHAR buffer[256];
  pcre2_get_error_message(code, buffer, sizeof buffer);
  return reinterpret_cast<const char*>(buffer);
}

struct MatchData {
  pcre2_match_data* data;
  explicit MatchData(const pcre2_code* code)
      : data(pcre2_match_data_create_from_pattern(code, nullptr)) {
    if (data == nullptr) throw std::bad_alloc();
  }
  ~MatchData() { pcre2_match_data_free(data); }
};

}  // namespace

SplitRegex::SplitRegex(const std::string& pattern)
    : pattern_(pattern), compiled_(std::make_unique<Compiled>()) {
  int error = 0;
  PCRE2_SIZE offset = 0;
  const std::string updated = with_icu_unicode_properties(pattern);
  compiled_->code =
      pcre2_compile(reinterpret_cast<PCRE2_SPTR>(updated.data()), updated.size(),
                    PCRE2_UTF | PCRE2_UCP | PCRE2_MATCH_INVALID_UTF, &error, &offset, nullptr);
  if (compiled_->code == nullptr) {
    throw std::invalid_argument("split pattern '" + pattern + "': " + pcre2_message(error) +
                                " at offset " + std::to_string(offset));
  }
  // JIT is only faster; where the platform has none, the interpreter gives the same matches.
  pcre2_jit_compile(compiled_->code, PCRE2_JIT_COMPLETE);
}

SplitRegex::~SplitRegex() = default;
SplitRegex::SplitRegex(SplitRegex&&) noexcept = default;
SplitRegex& SplitRegex::operator=(SplitRegex&&) noexcept = default;

std::vector<TextSpan> SplitRegex::find_all(std::string_view text) const {
  std::vector<TextSpan> matches;
  const MatchData match(compiled_->code);
  const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
  size_t start = 0;
  while (start < text.size()) {
    const int rc =
        pcre2_match(compiled_->code, subject, text.size(), start, 0, match.data, nullptr);
    if (rc == PCRE2_ERROR_NOMATCH) break;
    if (rc < 0) {
      throw std::runtime_error("split pattern '" + pattern_ + "': " + pcre2_message(rc));
    }
    const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(match.data);
    if (ovector[1] > ovector[0]) {
      matches.push_back({ovector[0], ovector[1]});
      start = ovector[1];
    } else if (ovector[0] < text.size()) {
      start = ovector[0] + utf8_length(text[ovector[0]]);
    } else {
      break;
    }
  }
  return matches;
}

}  // namespace infergate
