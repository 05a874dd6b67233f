// The comparison as JUnit XML, for CI test-report widgets (GitLab merge requests, GitHub
// test-reporter actions); docs/reports.md says how each verdict maps:
//   regressed and blocking             -> <failure type="regression">
//   inconclusive from a rule that could fail the gate -> <error type="inconclusive">
//   inconclusive from a warn rule      -> <skipped>
//   regressed but not blocking (warn, justified) -> passes, the regression in <system-out>
//   pass, improved                     -> passes, the numbers in <system-out>
// A "fingerprint" test case comes first: it fails when the comparison is incomparable and lists
// the differing fields.
#pragma once

#include <string>

#include "gates/verdict/comparison.h"

namespace infergate {

std::string junit_report(const Comparison& comparison);

}  // namespace infergate
