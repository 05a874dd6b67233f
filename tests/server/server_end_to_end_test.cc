// The server in-process on a free port, spoken to over real loopback HTTP.
#include <boost/asio/connect.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>
#include <thread>

#include "engine/model/model_loader.h"
#include "engine/tokenizer/byte_tokenizer.h"
#include "engine/tokenizer/chat_template.h"
#include "server/http_server.h"

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

// The built-in tiny model behind a server on a free port, running on its own thread.
struct RunningServer {
  explicit RunningServer(int max_pending = 4096, const EngineConfig& engine = config())
      : service(std::make_unique<Engine>(engine, load_model({}))) {
    ServerOptions options;
    options.port = 0;
    options.api_key = "k";
    options.max_pending_requests = max_pending;
    server =
        std::make_unique<HttpServer>(options, service,
                                     ServedModel{"tiny", service.engine().model_config().vocab_size,
                                                 service.engine().max_model_len(), &tokenizer});
    runner = std::thread([this] { server->run(); });
  }
  ~RunningServer() {
    server->stop();
    runner.join();
  }
  uint16_t port() const { return server->port(); }

  static EngineConfig config() {
    EngineConfig c;
    c.num_threads = 2;
    return c;
  }
  EngineService service;
  const ByteTokenizer tokenizer{service.engine().weights().vocab};
  std::unique_ptr<HttpServer> server;
  std::thread runner;
};

// The data of each SSE event, up to [DONE].
std::vector<json> sse_events(const std::string& sse) {
  std::vector<json> events;
  for (size_t at = 0; (at = sse.find("data: ", at)) != std::string::npos; at += 6) {
    const std::string data = sse.substr(at + 6, sse.find("\n\n", at) - at - 6);
    if (data == "[DONE]") break;
    events.push_back(json::parse(data));
  }
  return events;
}

// A connection with a streaming request sent and its first bytes read: the request is running.
struct OpenStream {
  OpenStream(uint16_t port, const json& body) : s(io) {
    s.connect(net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port));
    http::request<http::string_body> req(http::verb::post, "/v1/completions", 11);
    req.set(http::field::authorization, "Bearer k");
    req.body() = body.dump();
    req.prepare_payload();
    http::write(s, req);
    char first[64];
    s.socket().read_some(net::buffer(first));
  }
  net::io_context io;
  boost::beast::tcp_stream s;
};

void wait_until_idle(const EngineService& service) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (service.stats().num_running + service.stats().num_waiting > 0 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

TEST_CASE("server: health, models, completions, streaming, errors and disconnects") {
  RunningServer running;
  const uint16_t port = running.port();
  const EngineService& service = running.service;

  CHECK(call(port, http::verb::get, "/health", "", "").body() == "ok");
  CHECK(json::parse(call(port, http::verb::get, "/v1/models", "").body())["data"][0]["id"] ==
        "tiny");

  const std::vector<int32_t> prompt = {1, 5, 9, 200};
  Engine reference(RunningServer::config(), load_model({}));
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
  const std::vector<json> events = sse_events(sse);
  for (const json& e : events) {
    if (!e["choices"].empty()) text += e["choices"][0]["text"].get<std::string>();
  }
  const json& last = events.back();
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
    OpenStream leaving(
        port, {{"prompt", prompt}, {"max_tokens", 1000}, {"ignore_eos", true}, {"stream", true}});
  }
  wait_until_idle(service);
  CHECK(service.stats().num_running == 0);
  CHECK(service.stats().kv_usage == 0);
  CHECK(call(port, http::verb::get, "/health", "", "").body() == "ok");
}

TEST_CASE("server: chat completions, whole and streamed, with stop strings") {
  RunningServer running;
  const uint16_t port = running.port();
  const json messages = json::array({{{"role", "user"}, {"content", "Say something."}}});
  const json body = {
      {"messages", messages}, {"max_tokens", 24}, {"temperature", 0}, {"ignore_eos", true}};
  const json full =
      json::parse(call(port, http::verb::post, "/v1/chat/completions", body.dump()).body());
  CHECK(full["object"] == "chat.completion");
  const std::string content = full["choices"][0]["message"]["content"];
  CHECK(full["choices"][0]["message"]["role"] == "assistant");
  CHECK(full["usage"]["prompt_tokens"] ==
        running.tokenizer.encode(render_chatml({{"user", "Say something."}}), true).size());

  json streamed = body;
  streamed["stream"] = true;
  streamed["stream_options"] = {{"include_usage", true}};
  const std::vector<json> events =
      sse_events(call(port, http::verb::post, "/v1/chat/completions", streamed.dump()).body());
  std::string text;
  for (const json& e : events) {
    CHECK(e["object"] == "chat.completion.chunk");
    if (!e["choices"].empty()) text += e["choices"][0]["delta"]["content"].get<std::string>();
  }
  CHECK(events.front()["choices"][0]["delta"]["role"] == "assistant");
  CHECK(text == content);
  CHECK(events.back()["usage"]["completion_tokens"] == 24);

  // A stop string taken from the middle of the greedy answer: the answer ends just before it.
  REQUIRE(content.size() > 8);
  const std::string stop = content.substr(5, 3);
  const std::string expected = content.substr(0, content.find(stop));
  json stopping = body;
  stopping["stop"] = stop;
  const json stopped =
      json::parse(call(port, http::verb::post, "/v1/chat/completions", stopping.dump()).body());
  CHECK(stopped["choices"][0]["message"]["content"] == expected);
  CHECK(stopped["choices"][0]["finish_reason"] == "stop");
  stopping["stream"] = true;
  std::string streamed_text;
  for (const json& e :
       sse_events(call(port, http::verb::post, "/v1/chat/completions", stopping.dump()).body())) {
    streamed_text += e["choices"][0]["delta"]["content"].get<std::string>();
  }
  CHECK(streamed_text == expected);
  wait_until_idle(running.service);
  CHECK(running.service.stats().kv_usage == 0);  // the stopped requests were aborted
}

TEST_CASE("server: a required tool call, whole and streamed, and /metrics counts its masks") {
  RunningServer running;
  const uint16_t port = running.port();
  const json body = json::parse(R"({"messages": [{"role": "user", "content": "Weather?"}],
      "tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string", "maxLength": 6}},
        "required": ["city"], "additionalProperties": false}}}],
      "tool_choice": "required", "parallel_tool_calls": false, "max_tokens": 120,
      "temperature": 0})");
  const json whole =
      json::parse(call(port, http::verb::post, "/v1/chat/completions", body.dump()).body());
  INFO(whole.dump());
  const json& choice = whole["choices"][0];
  CHECK(choice["finish_reason"] == "tool_calls");
  CHECK(choice["message"]["content"].is_null());
  REQUIRE(choice["message"]["tool_calls"].size() == 1);
  const json& call_made = choice["message"]["tool_calls"][0];
  CHECK(call_made["function"]["name"] == "get_weather");
  const json arguments = json::parse(call_made["function"]["arguments"].get<std::string>());
  CHECK(arguments.size() == 1);
  CHECK(arguments["city"].get<std::string>().size() <= 6 * 4);  // 6 characters of UTF-8

  json streamed = body;
  streamed["stream"] = true;
  std::vector<json> deltas;
  std::string last_reason;
  for (const json& e :
       sse_events(call(port, http::verb::post, "/v1/chat/completions", streamed.dump()).body())) {
    const json& delta = e["choices"][0]["delta"];
    if (delta.contains("tool_calls")) deltas.push_back(delta["tool_calls"][0]);
    if (e["choices"][0]["finish_reason"].is_string())
      last_reason = e["choices"][0]["finish_reason"];
  }
  REQUIRE(deltas.size() == 1);  // the call goes out whole when its closing tag comes
  CHECK(deltas[0]["index"] == 0);
  CHECK(deltas[0]["function"] == call_made["function"]);
  CHECK(last_reason == "tool_calls");
  const std::string metrics = call(port, http::verb::get, "/metrics", "", "").body();
  const std::string masks = "infergate:grammar_token_masks_total{model_name=\"tiny\"} ";
  const size_t at = metrics.find(masks);
  REQUIRE(at != std::string::npos);
  CHECK(std::stoll(metrics.substr(at + masks.size())) > 0);
}

TEST_CASE("server: beyond --max-pending a request gets 429 at once, and /metrics counts it") {
  RunningServer running(/*max_pending=*/1);
  const uint16_t port = running.port();
  const json body = {{"prompt", {1, 2, 3}}, {"max_tokens", 8}, {"ignore_eos", true}};
  {
    OpenStream busy(
        running.port(),
        {{"prompt", {1, 2, 3}}, {"max_tokens", 1000}, {"ignore_eos", true}, {"stream", true}});
    const auto res = call(port, http::verb::post, "/v1/completions", body.dump());
    CHECK(res.result_int() == 429);
    CHECK(res[http::field::retry_after] == "1");
    CHECK_THAT(res.body(), Catch::Contains("overloaded"));
  }
  wait_until_idle(running.service);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  int status = 0;
  while ((status = call(port, http::verb::post, "/v1/completions", body.dump()).result_int()) ==
             429 &&
         std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));  // the slot frees on write error
  }
  CHECK(status == 200);
  const std::string metrics = call(port, http::verb::get, "/metrics", "", "").body();
  // At least the one above; the retries while the slot was being released count too.
  const std::string refused =
      "infergate:request_refused_total{model_name=\"tiny\",status=\"429\"} ";
  const size_t at = metrics.find(refused);
  REQUIRE(at != std::string::npos);
  CHECK(std::stoi(metrics.substr(at + refused.size())) >= 1);
  CHECK_THAT(metrics, Catch::Contains("infergate:time_to_first_token_seconds_bucket"));
  CHECK_THAT(metrics, Catch::Contains("infergate:num_requests_running{model_name=\"tiny\"} 0"));
  CHECK_THAT(metrics, !Catch::Contains("spec_decode"));  // only when speculating
}

TEST_CASE("server: n choices share the prompt's blocks through the prefix cache") {
  RunningServer server;
  std::vector<int32_t> prompt;
  for (int i = 0; i < 70; ++i) prompt.push_back(3 + (i * 37) % 200);  // 4 full blocks of 16
  const json body = {{"prompt", prompt}, {"max_tokens", 6}, {"ignore_eos", true}, {"n", 4}};
  const auto res = call(server.port(), http::verb::post, "/v1/completions", body.dump());
  REQUIRE(res.result_int() == 200);
  const json answer = json::parse(res.body());
  REQUIRE(answer["choices"].size() == 4u);
  for (int i = 0; i < 4; ++i) {
    CHECK(answer["choices"][i]["index"] == i);
    CHECK(answer["choices"][i]["token_ids"] == answer["choices"][0]["token_ids"]);  // greedy
  }
  CHECK(answer["usage"]["completion_tokens"] == 24);
  CHECK(answer["usage"]["prompt_tokens"] == 70);
  // The later three found the first one's 4 full blocks cached.
  wait_until_idle(server.service);
  CHECK(server.service.stats().prefix_cache.hits >= 3 * 64);
}

TEST_CASE("server: speculative decoding streams the same tokens and /metrics counts drafts") {
  EngineConfig spec = RunningServer::config();
  spec.speculative_method = SpeculativeMethod::kNgram;
  spec.speculative_num_tokens = 8;
  RunningServer plain, speculating(4096, spec);
  // Greedy: the tiny model's output soon loops, so drafts are proposed and accepted.
  const json body = {
      {"prompt", {1, 2, 3}}, {"max_tokens", 200}, {"ignore_eos", true}, {"stream", true}};
  const auto a = call(plain.port(), http::verb::post, "/v1/completions", body.dump());
  const auto b = call(speculating.port(), http::verb::post, "/v1/completions", body.dump());
  REQUIRE(a.result_int() == 200);
  REQUIRE(b.result_int() == 200);
  std::string text_a, text_b;
  for (const json& e : sse_events(a.body())) text_a += e["choices"][0]["text"].get<std::string>();
  for (const json& e : sse_events(b.body())) text_b += e["choices"][0]["text"].get<std::string>();
  CHECK(text_a == text_b);
  CHECK(!text_a.empty());
  const std::string metrics = call(speculating.port(), http::verb::get, "/metrics", "", "").body();
  const std::string accepted =
      "infergate:spec_decode_num_accepted_tokens_total{model_name=\"tiny\"} ";
  const size_t at = metrics.find(accepted);
  REQUIRE(at != std::string::npos);
  CHECK(std::stoll(metrics.substr(at + accepted.size())) > 0);
  CHECK_THAT(metrics, Catch::Contains("infergate:spec_decode_num_accepted_tokens_per_pos_total{"
                                      "model_name=\"tiny\",position=\"7\"}"));
  CHECK_THAT(metrics, Catch::Contains("infergate:spec_decode_propose_seconds_total{"));
}

}  // namespace
}  // namespace infergate

namespace infergate {
namespace {

TEST_CASE("server: /tokenize and /detokenize count and spell as the served model does") {
  RunningServer running;
  const uint16_t port = running.port();
  const auto post = [&](const std::string& path, const json& body) {
    return call(port, http::verb::post, path, body.dump());
  };
  const json plain = json::parse(post("/tokenize", {{"prompt", "hi"}}).body());
  CHECK(plain["tokens"] == running.tokenizer.encode("hi", true));
  CHECK(plain["count"] == 3);  // BOS and two bytes
  CHECK(plain["max_model_len"] == running.service.engine().max_model_len());
  CHECK(json::parse(
            post("/tokenize", {{"prompt", "hi"}, {"add_special_tokens", false}}).body())["count"] ==
        2);
  // Messages become the prompt a chat completion would compute (ChatML for this model).
  const json chat = json::parse(
      post("/tokenize", {{"messages", {{{"role", "user"}, {"content", "hi"}}}}}).body());
  CHECK(chat["tokens"] == running.tokenizer.encode(render_chatml({{"user", "hi"}}), true));
  CHECK(json::parse(post("/detokenize", {{"tokens", plain["tokens"]}}).body())["prompt"] == "hi");
  // Half a character decodes to U+FFFD, as Hugging Face decodes it.
  const json lone = json::parse(post("/detokenize", {{"tokens", {3 + 0xC3}}}).body());
  CHECK(lone["prompt"] == "\xEF\xBF\xBD");
  const auto bad = post("/detokenize", {{"tokens", {999999}}});
  CHECK(bad.result_int() == 400);
  CHECK_THAT(bad.body(), Catch::Contains("tokens"));
  CHECK(post("/tokenize", {{"prompt", 5}}).result_int() == 400);
  CHECK(post("/tokenize", {{"prompt", "x"}, {"surprise", 1}}).result_int() == 400);
}

}  // namespace
}  // namespace infergate
