// `infergate sim`: the simulator's own commands (docs/simulator.md). `sim calibrate` times real
// engine steps on this machine and fits a calibration file; `sim list` shows the built-in
// hardware and model shapes.
#pragma once

namespace infergate {

int sim_command(int argc, char** argv);

}  // namespace infergate
