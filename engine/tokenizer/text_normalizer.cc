#include "engine/tokenizer/text_normalizer.h"

#include <unicode/locid.h>
#include <unicode/normalizer2.h>
#include <unicode/uchar.h>
#include <unicode/unistr.h>
#include <unicode/utypes.h>

#include <stdexcept>

#include "engine/tokenizer/text_replace.h"

namespace infergate {

namespace {

const icu::Normalizer2& icu_form(const std::string& form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = nullptr;
  if (form == "NFC") n = icu::Normalizer2::getNFCInstance(status);
  if (form == "NFD") n = icu::Normalizer2::getNFDInstance(status);
  if (form == "NFKC") n = icu::Normalizer2::getNFKCInstance(status);
  if (form == "NFKD") n = icu::Normalizer2::getNFKDInstance(status);
  if (n == nullptr || U_FAILURE(status)) {
    throw std::invalid_argument("normalizer '" + form + "' (allowed: NFC, NFD, NFKC, NFKD)");
  }
  return *n;
}

bool valid_utf8(const std::string& text) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
  std::string back;
  u.toUTF8String(back);
  return U_SUCCESS(status) && back == text;
}

std::string to_utf8(const icu::UnicodeString& u) {
  std::string out;
  u.toUTF8String(out);
  return out;
}

// Unicode White_Space at either end, as Rust's str::trim_start/trim_end see it.
bool is_space_at(const icu::UnicodeString& u, int32_t i) { return u_isUWhiteSpace(u.char32At(i)); }

std::string strip_text(const std::string& text, bool left, bool right) {
  const icu::UnicodeString u = icu::UnicodeString::fromUTF8(text);
  int32_t begin = 0;
  int32_t end = u.length();
  while (left && begin < end && is_space_at(u, begin)) begin = u.moveIndex32(begin, 1);
  while (right && end > begin && is_space_at(u, u.moveIndex32(end, -1))) {
    end = u.moveIndex32(end, -1);
  }
  return to_utf8(u.tempSubStringBetween(begin, end));
}

}  // namespace

TextNormalizer TextNormalizer::unicode_form(const std::string& form) {
  icu_form(form);  // refuses an unknown form now, not at the first text
  TextNormalizer n;
  n.kind_ = Kind::kUnicodeForm;
  n.form_ = form;
  return n;
}

TextNormalizer TextNormalizer::lowercase() {
  TextNormalizer n;
  n.kind_ = Kind::kLowercase;
  return n;
}

TextNormalizer TextNormalizer::prepend(std::string prefix) {
  TextNormalizer n;
  n.kind_ = Kind::kPrepend;
  n.to_ = std::move(prefix);
  return n;
}

TextNormalizer TextNormalizer::replace_string(std::string from, std::string to) {
  TextNormalizer n;
  n.kind_ = Kind::kReplace;
  n.from_ = std::move(from);
  n.to_ = std::move(to);
  return n;
}

TextNormalizer TextNormalizer::replace_pattern(const std::string& pattern, std::string to) {
  TextNormalizer n;
  n.kind_ = Kind::kReplace;
  n.pattern_ = std::make_shared<SplitRegex>(pattern);
  n.to_ = std::move(to);
  return n;
}

TextNormalizer TextNormalizer::strip(bool left, bool right) {
  TextNormalizer n;
  n.kind_ = Kind::kStrip;
  n.left_ = left;
  n.right_ = right;
  return n;
}

std::string TextNormalizer::apply(const std::string& text) const {
  switch (kind_) {
    case Kind::kUnicodeForm: {
      if (!valid_utf8(text)) return text;
      UErrorCode status = U_ZERO_ERROR;
      const icu::UnicodeString out =
          icu_form(form_).normalize(icu::UnicodeString::fromUTF8(text), status);
      return U_SUCCESS(status) ? to_utf8(out) : text;
    }
    case Kind::kLowercase:
      return valid_utf8(text)
                 ? to_utf8(icu::UnicodeString::fromUTF8(text).toLower(icu::Locale::getRoot()))
                 : text;
    case Kind::kPrepend:
      return text.empty() ? text : to_ + text;
    case Kind::kReplace: {
      if (!pattern_) return replace_all(text, from_, to_);
      std::string out;
      size_t at = 0;
      for (const TextSpan& m : pattern_->find_all(text)) {
        out.append(text, at, m.begin - at).append(to_);
        at = m.end;
      }
      return out.append(text, at, std::string::npos);
    }
    case Kind::kStrip:
      return strip_text(text, left_, right_);
  }
  return text;
}

std::string normalize_text(const std::vector<TextNormalizer>& steps, std::string text) {
  for (const TextNormalizer& step : steps) text = step.apply(text);
  return text;
}

}  // namespace infergate
