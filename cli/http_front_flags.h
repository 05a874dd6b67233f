// The flags both HTTP fronts take, `serve` and `router`: where to listen, the clients' API key,
// HTTP threads, the connection limit and the request timeouts, declared and checked once.
#pragma once

#include <boost/program_options.hpp>
#include <string>

namespace infergate {

struct HttpFrontFlags {
  std::string host;
  int port = 0;  // an int, so --port 70000 is named out of range rather than wrapped
  std::string api_key;
  int http_threads = 0;
  int max_connections = 0;
  double header_timeout_s = 0;
  double body_timeout_s = 0;
  double idle_timeout_s = 0;
};

// Declares --host, --port, --api-key, --http-threads, --max-connections, --header-timeout-s,
// --body-timeout-s and --idle-timeout-s into `flags`, whose values are the defaults.
void add_http_front_options(boost::program_options::options_description& desc,
                            HttpFrontFlags& flags);

// Throws std::invalid_argument naming the flag and its range; an empty --api-key, which would
// turn authentication off, is refused ("leave --api-key out to `verb` without one").
void check_http_front_flags(const boost::program_options::variables_map& vm,
                            const HttpFrontFlags& flags, const std::string& verb);

}  // namespace infergate
