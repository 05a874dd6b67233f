#include "bench/driver/energy_figures.h"

#include "bench/telemetry/listening_process.h"
#include "common/http/http_url.h"

namespace infergate {

std::string energy_not_the_targets(const TargetSpec& target) {
  if (target.type != "openai") return "";
  const std::string host = parse_http_url(target.url).host;
  if (is_loopback_host(host)) return "";
  return "the server is on another host (" + host + "): this machine's counters are not its";
}

EnergyRecord energy_record(const EnergyReading& reading,
                           const std::vector<RequestRecord>& records) {
  EnergyRecord e;
  e.cpu_joules = reading.cpu_joules;
  e.gpu_joules = reading.gpu_joules;
  e.cpu_unavailable = reading.cpu_unavailable;
  e.gpu_unavailable = reading.gpu_unavailable;
  e.cpu_zones = reading.cpu_zones;
  e.gpus = reading.gpus;
  e.seconds = reading.seconds;
  for (const RequestRecord& r : records) {
    if (r.status != RequestStatus::kOk) continue;
    ++e.requests;
    e.output_tokens += r.output_tokens;
  }
  return e;
}

EnergyRecord energy_unavailable(const std::string& why) {
  EnergyRecord e;
  e.cpu_unavailable = why;
  e.gpu_unavailable = why;
  return e;
}

void add_energy(RunSummary& summary, const EnergyRecord& energy) {
  const std::optional<double> joules = energy.joules();
  if (!joules) return;
  if (energy.output_tokens > 0) {
    summary.energy_j_per_output_token = *joules / double(energy.output_tokens);
  }
  if (energy.requests > 0) summary.energy_j_per_request = *joules / double(energy.requests);
}

}  // namespace infergate
