// `infergate ab`: a paired, interleaved A/B of two builds (or two configurations) on this
// machine (docs/gates.md, "Paired A/B").
#pragma once

namespace infergate {

int ab_command(int argc, char** argv);

}  // namespace infergate
