// A whole bisect (docs/bisect.md): the ends are built, measured and compared first; when the bad
// end is a regression, `git bisect run` walks the commits between them in a temporary worktree,
// each step an `infergate bisect-step` process judging one commit against the good end.
#pragma once

#include <ostream>
#include <stdexcept>
#include <string>

#include "gates/bisect/bisect_report.h"
#include "gates/bisect/bisect_settings.h"
#include "gates/bisect/git_repo.h"

namespace infergate {

// A bisect that cannot go on: an end that does not build or cannot be measured, a range git
// cannot bisect, a step that failed. The message says what and where the log is.
class BisectError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Runs the bisect and returns its report (command and created_at left for the caller). The
// steps are `step_executable bisect-step --state FILE`; the output of `git bisect run` is
// appended to `run_log`. Throws BisectError, or Interrupted when interrupted (the temporary
// worktree and the bisect state are removed either way).
BisectReport run_bisect(const GitRepo& repo, const BisectSettings& settings,
                        const std::string& step_executable, const std::string& run_log,
                        std::ostream& progress);

}  // namespace infergate
