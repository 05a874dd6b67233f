// `infergate diagnose RESULTS`: names a run's dominant symptom with its evidence, proposes ranked
// remedies as workload overrides, and with --verify measures each remedy in paired runs
// (docs/diagnose.md).
#pragma once

namespace infergate {

int diagnose_command(int argc, char** argv);

}  // namespace infergate
