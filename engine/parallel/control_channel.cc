#include "engine/parallel/control_channel.h"

#include <array>
#include <string>

namespace infergate {

ControlChannel::ControlChannel() : comm_(CommOptions{/*timeout_s=*/0}) {}

void ControlChannel::send(ControlCommand command, const std::vector<int64_t>& payload) {
  std::array<int64_t, 2> header = {int64_t(command), int64_t(payload.size())};
  comm_.broadcast(header, 0);
  if (payload.empty()) return;
  std::vector<int64_t> copy = payload;  // broadcast writes its buffer on every rank
  comm_.broadcast(copy, 0);
}

std::pair<ControlCommand, std::vector<int64_t>> ControlChannel::receive() {
  std::array<int64_t, 2> header = {0, 0};
  comm_.broadcast(header, 0);
  std::vector<int64_t> payload(static_cast<size_t>(header[1]));
  if (!payload.empty()) comm_.broadcast(payload, 0);
  return {ControlCommand(header[0]), std::move(payload)};
}

std::vector<int64_t> text_payload(const std::string& text) {
  return std::vector<int64_t>(text.begin(), text.end());
}

std::string payload_text(const std::vector<int64_t>& payload) {
  std::string text;
  for (const int64_t c : payload) text.push_back(char(c));
  return text;
}

}  // namespace infergate
