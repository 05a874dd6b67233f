#include "engine/tokenizer/jinja/slice.h"

#include <algorithm>
#include <cmath>

#include "engine/tokenizer/jinja/js_text.h"

namespace infergate::jinja {
namespace {

// Whether index `i` is one the slice visits.
bool in_slice(const SliceRange& range, double i) {
  if (range.direction > 0) {
    return i >= range.start && i < range.stop && std::fmod(i - range.start, range.step) == 0;
  }
  if (range.direction < 0) {
    return i <= range.start && i > range.stop && std::fmod(range.start - i, -range.step) == 0;
  }
  return false;
}

}  // namespace

// The defaults depend on the step's sign; with a negative step a stop of -1 means "through the
// first item" (not "before the last", as in Python).
SliceRange slice_range(double length, const Value& start, const Value& stop, const Value& step) {
  SliceRange range;
  range.step = step.is_undefined() ? 1 : step.number_value();
  range.direction = std::isnan(range.step) ? range.step : (range.step > 0) - (range.step < 0);
  if (range.direction >= 0) {
    range.start = start.is_undefined() ? 0 : start.number_value();
    range.start =
        range.start < 0 ? std::max(length + range.start, 0.0) : std::min(range.start, length);
    range.stop = stop.is_undefined() ? length : stop.number_value();
    range.stop = range.stop < 0 ? std::max(length + range.stop, 0.0) : std::min(range.stop, length);
  } else {
    range.start = start.is_undefined() ? length - 1 : start.number_value();
    range.start =
        range.start < 0 ? std::max(length + range.start, -1.0) : std::min(range.start, length - 1);
    range.stop = stop.is_undefined() ? -1 : stop.number_value();
    range.stop =
        range.stop < -1 ? std::max(length + range.stop, -1.0) : std::min(range.stop, length - 1);
  }
  return range;
}

// Two passes over the text (its size, then its bytes, placed from the end for a negative step)
// rather than a list of its characters: a 16 MiB string would make a 256 MiB list.
std::string slice_text(std::string_view text, const SliceRange& range) {
  size_t bytes = 0;
  double i = 0;
  for (size_t pos = 0; pos < text.size(); ++i) {
    const size_t size = decode_utf8(text, pos).size;
    if (in_slice(range, i)) bytes += size;
    pos += size;
  }
  std::string out(bytes, '\0');
  size_t forward = 0;
  size_t backward = bytes;
  i = 0;
  for (size_t pos = 0; pos < text.size(); ++i) {
    const size_t size = decode_utf8(text, pos).size;
    if (in_slice(range, i)) {
      const size_t at = range.direction > 0 ? forward : backward - size;
      out.replace(at, size, text.substr(pos, size));
      if (range.direction > 0) {
        forward += size;
      } else {
        backward -= size;
      }
    }
    pos += size;
  }
  return out;
}

}  // namespace infergate::jinja
