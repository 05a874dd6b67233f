// The comparison as GitHub-flavoured Markdown, for a pull-request comment or
// $GITHUB_STEP_SUMMARY (docs/reports.md): a banner with the overall status word, one table row
// per rule evaluation, the reasons, fingerprint differences, warnings and the command that
// reproduces the comparison.
#pragma once

#include <string>

#include "gates/verdict/comparison.h"

namespace infergate {

std::string markdown_report(const Comparison& comparison);

}  // namespace infergate
