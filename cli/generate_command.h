// `infergate generate`: text from a model, with the throughput it ran at.
#pragma once

namespace infergate {

int generate_command(int argc, char** argv);

}  // namespace infergate
