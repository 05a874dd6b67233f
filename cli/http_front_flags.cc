#include "cli/http_front_flags.h"

#include <stdexcept>

#include "cli/flag_range.h"

namespace infergate {

namespace po = boost::program_options;

namespace {

constexpr int kMaxHttpThreads = 256;
constexpr int kMaxConnections = 1'000'000;
constexpr double kMaxTimeoutSeconds = 86'400;

}  // namespace

void add_http_front_options(po::options_description& desc, HttpFrontFlags& f) {
  desc.add_options()("host", po::value(&f.host)->default_value(f.host), "address to listen on")(
      "port", po::value(&f.port)->default_value(f.port), "0 to 65535; 0: any free port")(
      "api-key", po::value(&f.api_key), "require Authorization: Bearer KEY of clients")(
      "http-threads", po::value(&f.http_threads)->default_value(f.http_threads),
      "threads serving HTTP (an engine has its own)")(
      "max-connections", po::value(&f.max_connections)->default_value(f.max_connections),
      "open client connections beyond which new ones get 503 and are closed")(
      "header-timeout-s", po::value(&f.header_timeout_s)->default_value(f.header_timeout_s),
      "a request header must arrive within this (from its first byte), else 408")(
      "body-timeout-s", po::value(&f.body_timeout_s)->default_value(f.body_timeout_s),
      "a request body must arrive within this (after its header), else 408")(
      "idle-timeout-s", po::value(&f.idle_timeout_s)->default_value(f.idle_timeout_s),
      "an idle client connection is closed after this; also the longest one write may wait on "
      "the client");
}

void check_http_front_flags(const po::variables_map& vm, const HttpFrontFlags& f,
                            const std::string& verb) {
  if (f.port < 0 || f.port > 65535) {
    throw std::invalid_argument("--port " + std::to_string(f.port) +
                                " is out of range (0 to 65535; 0: any free port)");
  }
  if (vm.count("api-key") && f.api_key.empty()) {
    throw std::invalid_argument(
        "--api-key is empty, which would turn authentication off; leave "
        "--api-key out to " +
        verb + " without one");
  }
  check_flag_range("http-threads", f.http_threads, 1, kMaxHttpThreads);
  check_flag_range("max-connections", f.max_connections, 1, kMaxConnections);
  check_flag_range("header-timeout-s", f.header_timeout_s, 0, kMaxTimeoutSeconds, true);
  check_flag_range("body-timeout-s", f.body_timeout_s, 0, kMaxTimeoutSeconds, true);
  check_flag_range("idle-timeout-s", f.idle_timeout_s, 0, kMaxTimeoutSeconds, true);
}

}  // namespace infergate
