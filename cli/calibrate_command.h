// `infergate calibrate WORKLOAD --repeat N`: an A/A test of this build on this machine. Records
// each gated metric's run-to-run spread beside the baseline, reports how often the rules would
// cry wolf on these runs, and (--check-slowdown F) how often they catch a known slowdown.
#pragma once

namespace infergate {

int calibrate_command(int argc, char** argv);

}  // namespace infergate
