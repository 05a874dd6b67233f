#include "gates/verdict/verdict.h"

namespace infergate {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::kPass:
      return "pass";
    case Verdict::kRegressed:
      return "regressed";
    case Verdict::kImproved:
      return "improved";
    case Verdict::kInconclusive:
      return "inconclusive";
  }
  return "?";
}

}  // namespace infergate
