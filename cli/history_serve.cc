#include "cli/history_serve.h"

// Boost 1.74's asio/awaitable.hpp uses std::exchange without including <utility>.
#include <utility>

#include <atomic>
#include <boost/asio/co_spawn.hpp>
#include <iostream>
#include <mutex>
#include <optional>

#include "common/http/http_listener.h"
#include "common/http/http_responses.h"
#include "common/http/http_routes.h"
#include "common/http/request_reader.h"

namespace infergate {

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct Site {
  Site(HistoryStore& s, DashboardSettings d) : store(s), settings(std::move(d)) {}
  HistoryStore& store;
  DashboardSettings settings;
  std::mutex mutex;  // one database connection for every session
  std::atomic<int> open_connections{0};
};

HttpResponse page(const HttpRequest& req, http::status status, std::string body) {
  HttpResponse res = text_response(req, "text/html; charset=utf-8", std::move(body));
  res.result(status);
  return res;
}

HttpResponse not_found(const HttpRequest& req, const std::string& why) {
  return page(req, http::status::not_found, "<!doctype html><p>" + why + "</p>");
}

// "/runs/12.html" -> 12
std::optional<int64_t> run_of(std::string_view path) {
  constexpr std::string_view prefix = "/runs/", suffix = ".html";
  if (!path.starts_with(prefix) || !path.ends_with(suffix)) return std::nullopt;
  const std::string digits(path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()));
  if (digits.empty() || digits.size() > 15 ||
      digits.find_first_not_of("0123456789") != std::string::npos) {
    return std::nullopt;
  }
  return std::stoll(digits);
}

HttpResponse answer(const HttpRequest& req, Site& site) {
  if (req.method() != http::verb::get) {
    HttpResponse res = text_response(req, "text/plain", "only GET\n");
    res.result(http::status::method_not_allowed);
    res.set(http::field::allow, "GET");
    return res;
  }
  const std::string path(request_path(req));
  const std::lock_guard lock(site.mutex);
  try {
    if (const std::optional<int64_t> run = run_of(path)) {
      return page(req, http::status::ok,
                  run_report_html(site.store, *run, site.settings.run_report));
    }
    DashboardSettings live = site.settings;
    live.detect = false;  // detected once at start; pages show what is recorded
    DashboardData d = dashboard_data(site.store, live);
    for (const StoredRun& r : d.runs) d.reports.insert(r.id);  // rendered when asked for
    if (path == "/" || path == "/index.html")
      return page(req, http::status::ok, dashboard_index_html(d));
    for (const MetricSeries& s : d.series) {
      if (path == "/" + workload_page_name(s.key.workload, s.key.machine_key)) {
        return page(req, http::status::ok,
                    dashboard_workload_html(d, s.key.workload, s.key.machine_key));
      }
    }
    return not_found(req, "no such page");
  } catch (const HistoryError& e) {  // e.g. a run that does not exist or whose file was pruned
    return not_found(req, e.what());
  }
}

net::awaitable<void> session(net::ip::tcp::socket socket, Site& site) {
  const ConnectionSlot slot(site.open_connections);
  beast::tcp_stream stream(std::move(socket));
  beast::flat_buffer buffer;
  beast::error_code ec;
  const HttpReadLimits limits;
  for (;;) {
    ReadOutcome read = co_await read_request(stream, buffer, limits);
    if (read.refusal) {
      co_await send(stream, std::move(*read.refusal), ec, kLingerSeconds);
      co_return;
    }
    if (!read.request) break;
    const bool keep = read.request->keep_alive();
    co_await send(stream, answer(*read.request, site), ec, limits.idle_timeout_s);
    if (ec || !keep) break;
  }
  stream.socket().shutdown(net::ip::tcp::socket::shutdown_send, ec);
}

}  // namespace

int history_serve(HistoryStore& store, const DashboardSettings& settings, const std::string& host,
                  uint16_t port) {
  Site site(store, settings);
  if (settings.detect) dashboard_data(store, settings);  // detect and record, once
  ListenOptions options;
  options.host = host;
  options.port = port;
  options.num_threads = 1;
  options.max_connections = 64;
  options.name = "history serve";
  HttpListener listener(options, site.open_connections,
                        {[&site](net::ip::tcp::socket s) { return session(std::move(s), site); },
                         [](net::ip::tcp::socket s) {
                           return refuse_over_connection_limit(std::move(s), 64, "history serve");
                         },
                         [] {}});
  listener.stop_on_signals();
  std::cout << "history serve: listening on http://" << host << ":" << listener.port() << "/"
            << std::endl;
  listener.run();
  return 0;
}

}  // namespace infergate
