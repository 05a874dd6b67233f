// Collectives over a link of bandwidth B (one direction) and latency a, as NCCL's ring
// algorithms move data (NCCL's performance notes: "bus bandwidth"): all-reduce of S bytes over
// n ranks sends 2(n-1)/n x S per rank in 2(n-1) steps; all-to-all sends (n-1)/n x S in n-1.
#pragma once

#include "sim/hardware_spec.h"

namespace infergate {

double all_reduce_seconds(const LinkSpec& link, double bytes, int ranks);
// `bytes`: what each rank holds before the exchange (it keeps 1/n of it).
double all_to_all_seconds(const LinkSpec& link, double bytes, int ranks);
// One message between two pipeline stages.
double send_recv_seconds(const LinkSpec& link, double bytes);

}  // namespace infergate
