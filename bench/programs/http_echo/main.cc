// infergate_http_echo: the fast OpenAI-style streaming fixture (echo_server.h).
//   infergate_http_echo [--host 127.0.0.1] [--port 0] [--threads 1] [--model echo]
//                       [--vocab-size 32000] [--tokens-per-chunk 1] [--no-token-ids]
//                       [--token-delay-us 0] [--close-after-requests 0]
//                       [--idle-close-ms 0] [--http10] [--require-header 'NAME: VALUE']
//                       [--reasoning-tokens 0] [--reasoning-as field|think]
// Prints "listening on http://HOST:PORT" once bound; SIGINT/SIGTERM stop it (exit 0).
#include <boost/program_options.hpp>
#include <iostream>

#include "bench/programs/http_echo/echo_server.h"
#include "common/http/open_file_limit.h"

int main(int argc, char** argv) {
  namespace po = boost::program_options;
  infergate::EchoServerOptions o;
  po::options_description desc("infergate_http_echo [options] (a benchmark fixture, no model)");
  desc.add_options()("help,h", "show this help")("host", po::value(&o.host)->default_value(o.host),
                                                 "address to listen on")(
      "port", po::value(&o.port)->default_value(o.port), "0: any free port")(
      "threads", po::value(&o.num_threads)->default_value(o.num_threads), "serving threads")(
      "model", po::value(&o.model)->default_value(o.model), "the one model name served")(
      "vocab-size", po::value(&o.vocab_size)->default_value(o.vocab_size),
      "reported by GET /v1/models (0: left out)")(
      "tokens-per-chunk", po::value(&o.tokens_per_chunk)->default_value(o.tokens_per_chunk),
      "tokens each streamed chunk carries")("no-token-ids", "stream text only (no token_ids)")(
      "token-delay-us", po::value(&o.token_delay_us)->default_value(o.token_delay_us),
      "0: the whole stream in one write; else one chunk per delay x its tokens")(
      "close-after-requests",
      po::value(&o.close_after_requests)->default_value(o.close_after_requests),
      "close a connection after this many answers, without saying so (0: never)")(
      "idle-close-ms", po::value(&o.idle_close_ms)->default_value(o.idle_close_ms),
      "close a connection idle this long between requests (0: never)")(
      "http10", "answer as HTTP/1.0 (no chunked encoding; closed after each answer)")(
      "reasoning-tokens", po::value(&o.reasoning_tokens)->default_value(o.reasoning_tokens),
      "as a reasoning model: each answer's first N tokens are thinking")(
      "reasoning-as", po::value(&o.reasoning_as)->default_value(o.reasoning_as),
      "field: chat's delta.reasoning_content; think: <think>...</think> in the text")(
      "require-header", po::value<std::string>(),
      "'NAME: VALUE': refuse requests without it with 401, as an auth gateway");
  try {
    po::variables_map vm;
    po::store(po::parse_command_line(argc, argv, desc), vm);
    po::notify(vm);
    if (vm.count("help")) {
      std::cout << desc;
      return 0;
    }
    o.token_ids = vm.count("no-token-ids") == 0;
    o.http10 = vm.count("http10") > 0;
    if (vm.count("require-header")) {
      const std::string h = vm["require-header"].as<std::string>();
      const size_t colon = h.find(": ");
      if (colon == std::string::npos || colon == 0) {
        throw std::invalid_argument("--require-header must be 'NAME: VALUE'");
      }
      o.required_header = h.substr(0, colon);
      o.required_value = h.substr(colon + 2);
    }
    if (o.reasoning_as != "field" && o.reasoning_as != "think") {
      throw std::invalid_argument("--reasoning-as must be field or think");
    }
    if (o.reasoning_tokens < 0 || o.num_threads < 1 || o.tokens_per_chunk < 1 || o.vocab_size < 0 ||
        o.token_delay_us < 0 || o.close_after_requests < 0 || o.idle_close_ms < 0) {
      throw std::invalid_argument(
          "--threads and --tokens-per-chunk must be >= 1; --reasoning-tokens, --vocab-size, "
          "--token-delay-us, "
          "--close-after-requests and --idle-close-ms >= 0");
    }
    infergate::raise_open_file_limit();
    infergate::EchoServer server(o);
    std::cout << "listening on http://" << o.host << ":" << server.port() << std::endl;
    server.run();
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "infergate_http_echo: error: " << e.what() << "\n";
    return 2;
  }
}
