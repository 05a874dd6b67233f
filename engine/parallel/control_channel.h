// Rank 0 -> every rank: what to do next (set up an engine, run a step's plan, release the
// engine, exit). Broadcasts with no deadline, since the other ranks wait here for as long as
// rank 0 has nothing to run (a server between requests); a dead rank 0 ends the job anyway.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "engine/comm/mpi_communicator.h"

namespace infergate {

enum class ControlCommand : int64_t { kExit = 0, kSetup = 1, kStep = 2, kRelease = 3 };

class ControlChannel {
 public:
  ControlChannel();  // over MPI_COMM_WORLD, collective: every rank makes one, in the same order

  // Rank 0.
  void send(ControlCommand command, const std::vector<int64_t>& payload = {});
  // The other ranks: blocks until rank 0 sends.
  std::pair<ControlCommand, std::vector<int64_t>> receive();

 private:
  MpiCommunicator comm_;
};

// Text as one int64 per byte, and back (the setup message is small and sent once per engine).
std::vector<int64_t> text_payload(const std::string& text);
std::string payload_text(const std::vector<int64_t>& payload);

}  // namespace infergate
