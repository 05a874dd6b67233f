#include "engine/tokenizer/jinja/preprocess.h"

#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {
namespace {

class Builder {
 public:
  explicit Builder(const MappedText& from) : from_(from) {}
  void copy(size_t begin, size_t end) {
    out_.text.append(from_.text, begin, end - begin);
    out_.origin.insert(out_.origin.end(), from_.origin.begin() + static_cast<ptrdiff_t>(begin),
                       from_.origin.begin() + static_cast<ptrdiff_t>(end));
  }
  MappedText finish() {
    out_.origin.push_back(from_.origin.back());
    return std::move(out_);
  }

 private:
  const MappedText& from_;
  MappedText out_;
};

bool at(std::string_view text, size_t pos, std::string_view what) {
  return text.substr(pos, what.size()) == what;
}

// After \n, \r, U+2028 or U+2029: where /^/m matches.
bool line_starts_at(std::string_view text, size_t pos) {
  if (pos == 0) return true;
  const char before = text[pos - 1];
  if (before == '\n' || before == '\r') return true;
  return pos >= 3 && (at(text, pos - 3, "\u2028") || at(text, pos - 3, "\u2029"));
}

// /^[ \t]*({[#%-])/gm -> "$1": blanks before a block or comment tag at a line's start.
MappedText lstrip_blocks(const MappedText& in) {
  const std::string_view text = in.text;
  Builder out(in);
  size_t copied = 0;
  for (size_t pos = 0; pos < text.size(); ++pos) {
    if (!line_starts_at(text, pos)) continue;
    size_t end = pos;
    while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
    const bool tag = end + 1 < text.size() && text[end] == '{' &&
                     (text[end + 1] == '#' || text[end + 1] == '%' || text[end + 1] == '-');
    if (!tag || end == pos) continue;
    out.copy(copied, pos);
    copied = end;
    pos = end - 1;
  }
  out.copy(copied, text.size());
  return out.finish();
}

// /([#%-]})\n/g -> "$1": the newline right after a tag.
MappedText trim_blocks(const MappedText& in) {
  const std::string_view text = in.text;
  Builder out(in);
  size_t copied = 0;
  for (size_t pos = 0; pos + 2 < text.size(); ++pos) {
    const char c = text[pos];
    if ((c == '#' || c == '%' || c == '-') && text[pos + 1] == '}' && text[pos + 2] == '\n') {
      out.copy(copied, pos + 2);
      copied = pos + 3;
      pos += 2;
    }
  }
  out.copy(copied, text.size());
  return out.finish();
}

size_t skip_spaces(std::string_view text, size_t pos) {
  while (size_t size = js_space_size(text, pos)) pos += size;
  return pos;
}

struct GenerationTag {
  bool found = false;
  bool strip_before = false;
  bool strip_after = false;
  size_t end = 0;  // just past "%}"
};

// {%(-?)\s*(?:end)?generation\s*(-?)%} at `pos`.
GenerationTag generation_tag_at(std::string_view text, size_t pos) {
  GenerationTag tag;
  if (!at(text, pos, "{%")) return tag;
  pos += 2;
  if (at(text, pos, "-")) tag.strip_before = true, ++pos;
  pos = skip_spaces(text, pos);
  if (at(text, pos, "end")) pos += 3;
  if (!at(text, pos, "generation")) return tag;
  pos = skip_spaces(text, pos + 10);
  if (at(text, pos, "-")) tag.strip_after = true, ++pos;
  if (!at(text, pos, "%}")) return tag;
  tag.found = true;
  tag.end = pos + 2;
  return tag;
}

// /(\s*){%(-?)\s*(?:end)?generation\s*(-?)%}(\s*)/gs: the tag goes, and the whitespace around
// it too on the side a '-' marks.
MappedText remove_generation_tags(const MappedText& in) {
  const std::string_view text = in.text;
  Builder out(in);
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t tag_start = skip_spaces(text, pos);
    const GenerationTag tag = generation_tag_at(text, tag_start);
    if (tag.found) {
      const size_t after = skip_spaces(text, tag.end);
      if (!tag.strip_before) out.copy(pos, tag_start);
      if (!tag.strip_after) out.copy(tag.end, after);
      pos = after;
      continue;
    }
    // No match starts anywhere in the blanks either; the next character is ordinary text.
    const size_t next =
        tag_start < text.size() ? tag_start + decode_utf8(text, tag_start).size : tag_start;
    out.copy(pos, next);
    pos = next;
  }
  return out.finish();
}

}  // namespace

MappedText preprocess(std::string_view source) {
  MappedText text;
  text.text = source;
  text.origin.resize(source.size() + 1);
  for (size_t i = 0; i <= source.size(); ++i) text.origin[i] = static_cast<uint32_t>(i);
  if (!text.text.empty() && text.text.back() == '\n') {
    text.text.pop_back();
    text.origin.erase(text.origin.end() - 2);
  }
  return remove_generation_tags(trim_blocks(lstrip_blocks(text)));
}

}  // namespace infergate::jinja
