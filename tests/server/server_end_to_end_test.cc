// The server in-process on a free port, spoken to over real loopback HTTP.
#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/model/model_loader.h"
#include "engine/server/http_server.h"

namespace infergate {
namespace {

namespace net = boost::asio;
namespace http = boost::beast::http;
using nlohmann::json;

http::response<http::string_body> call(uint16_t port, http::verb verb, const std::string& target,
                                       const std::string& body, const std::string& key = "k") {
  net::io_context io;
  boost::beast::tcp_stream s(io);
  s.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
  http::request<http::string_body> req(verb, target, 11);
  req.set(http::field::host, "localhost");
  if (!key.empty()) req.set(http::field::authorization, "Bearer " + key);
  req.body() = body;
  req.prepare_payload();
  http::write(s, req);
  boost::beast::flat_buffer buf;
  http::response<http::string_body> res;
  http::read(s, buf, res);
  return res;
}

TEST_CASE("server: health, models, completions, streaming, errors and disconnects") {
  EngineConfig config;
  config.num_threads = 2;
  EngineService service(std::make_unique<Engine>(config, load_model({})));
  const ByteTokenizer tokenizer(service.engine().weights().vocab);
  ServerOptions options;
  options.port = 0;
  options.api_key = "k";
  HttpServer server(options, service,
                    {"tiny", service.engine().model_config().vocab_size,
                     service.engine().max_model_len(), &tokenizer});
  std::thread runner([&] { server.run(); });
  const uint16_t port = server.port();

  CHECK(call(port, http::verb::get, "/health", "", "").body() == "ok");
  CHECK(json::parse(call(port, http::verb::get, "/v1/models", "").body())["data"][0]["id"] ==
        "tiny");

  const std::vector<int32_t> prompt = {1, 5, 9, 200};
  Engine reference(config, load_model({}));
  SamplingParams greedy;
  greedy.max_tokens = 12;
  greedy.ignore_eos = true;
  const std::vector<int32_t> expected = reference.generate({prompt}, greedy)[0].token_ids;
  const json body = {
      {"prompt", prompt}, {"max_tokens", 12}, {"temperature", 0}, {"ignore_eos", true}};
  const json full =
      json::parse(call(port, http::verb::post, "/v1/completions", body.dump()).body());
  CHECK(full["choices"][0]["token_ids"].get<std::vector<int32_t>>() == expected);
  CHECK(full["usage"]["total_tokens"] == 16);

  json streamed = body;
  streamed["stream"] = true;
  streamed["stream_options"] = {{"include_usage", true}};
  const std::string sse = call(port, http::verb::post, "/v1/completions", streamed.dump()).body();
  std::string text;
  json last;
  for (size_t at = 0; (at = sse.find("data: ", at)) != std::string::npos; at += 6) {
    const std::string data = sse.substr(at + 6, sse.find("\n\n", at) - at - 6);
    if (data == "[DONE]") break;
    last = json::parse(data);
    if (!last["choices"].empty()) text += last["choices"][0]["text"].get<std::string>();
  }
  CHECK(text == full["choices"][0]["text"]);
  CHECK(last["usage"]["completion_tokens"] == 12);

  CHECK(call(port, http::verb::get, "/v1/models", "", "").result_int() == 401);
  CHECK(call(port, http::verb::post, "/v1/completions", "{bad").result_int() == 400);
  {  // a body over 1 MiB is refused from its Content-Length, before it is read
    net::io_context io;
    boost::beast::tcp_stream s(io);
    s.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    net::write(s, net::buffer(std::string("POST /v1/completions HTTP/1.1\r\nHost: x\r\n"
                                          "Content-Length: 2097152\r\n\r\n{")));
    boost::beast::flat_buffer buf;
    http::response<http::string_body> res;
    http::read(s, buf, res);
    CHECK(res.result_int() == 413);
  }
  CHECK(call(port, http::verb::get, "/v1/completions", "").result_int() == 405);
  CHECK(call(port, http::verb::get, "/nope", "").result_int() == 404);

  {  // a client that leaves mid-stream: its request is aborted, its blocks return
    net::io_context io;
    boost::beast::tcp_stream s(io);
    s.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req(http::verb::post, "/v1/completions", 11);
    req.set(http::field::authorization, "Bearer k");
    req.body() =
        json{{"prompt", prompt}, {"max_tokens", 1000}, {"ignore_eos", true}, {"stream", true}}
            .dump();
    req.prepare_payload();
    http::write(s, req);
    char first[64];
    s.socket().read_some(net::buffer(first));
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (service.stats().num_running > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  CHECK(service.stats().num_running == 0);
  CHECK(service.stats().kv_usage == 0);
  CHECK(call(port, http::verb::get, "/health", "", "").body() == "ok");

  server.stop();
  runner.join();
}

}  // namespace
}  // namespace infergate
