// `infergate report RESULT [RESULT2] --out-dir DIR`: the HTML report of one run, or every report
// of a comparison (as `compare --report-dir`) without gating: it exits 0 whatever the verdict.
#pragma once

namespace infergate {

int report_command(int argc, char** argv);

}  // namespace infergate
