#include "bench/load/load_engine.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/asio/steady_timer.hpp>

#include <atomic>
#include <thread>

BOOST_AUTO_TEST_SUITE(bench_load_engine)

namespace {

namespace net = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using tcp = net::ip::tcp;
using namespace std::chrono_literals;
using namespace svc::bench;

// A plain HTTP/1.1 server on 127.0.0.1 that answers every request 200 at
// once, except that it holds the answer to request number `stall_at`
// (1-based, over all connections) for `stall`: a server that stops for a while.
class stalling_server {
public:
  stalling_server(std::size_t stall_at, std::chrono::milliseconds stall)
    : acceptor_(io_, {net::ip::make_address("127.0.0.1"), 0}), stall_at_(stall_at), stall_(stall) {
    accept();
    thread_ = std::thread([this] { io_.run(); });
  }
  ~stalling_server() {
    io_.stop();
    thread_.join();
  }

  svc::bench::target target() const {
    const auto ep = acceptor_.local_endpoint();
    return {ep, "127.0.0.1:" + std::to_string(ep.port())};
  }

private:
  struct session {
    explicit session(tcp::socket s) : stream(std::move(s)), timer(stream.get_executor()) {}
    beast::tcp_stream stream;
    net::steady_timer timer;
    beast::flat_buffer buffer;
    http::request<http::empty_body> request;
    http::response<http::string_body> response;
  };

  void accept() {
    acceptor_.async_accept([this](beast::error_code ec, tcp::socket s) {
      if (ec)
        return;
      read(std::make_shared<session>(std::move(s)));
      accept();
    });
  }

  void read(std::shared_ptr<session> s) {
    s->request = {};
    http::async_read(s->stream, s->buffer, s->request, [this, s](beast::error_code ec, std::size_t) {
      if (ec)
        return;
      s->response = {http::status::ok, 11};
      s->response.body() = "ok";
      s->response.keep_alive(true);
      s->response.prepare_payload();
      s->timer.expires_after(++served_ == stall_at_ ? stall_ : 0ms);
      s->timer.async_wait([this, s](beast::error_code) {
        http::async_write(s->stream, s->response, [this, s](beast::error_code ec, std::size_t) {
          if (!ec)
            read(s);
        });
      });
    });
  }

  net::io_context io_;
  tcp::acceptor acceptor_;
  std::size_t stall_at_;
  std::chrono::milliseconds stall_;
  std::size_t served_ = 0; // on the server's thread only
  std::thread thread_;
};

// GET / on every connection; a 200 is what it wants.
class get_source : public load_source {
public:
  explicit get_source(const svc::bench::target& t)
    : request_("GET / HTTP/1.1\r\nHost: " + t.host_header + "\r\n\r\n") {}
  planned_request next(std::size_t, steady::time_point) override { return {0, request_, 0, {}, {}}; }
  bool judge(const planned_request&, const exchange& x) override { return !x.error && x.response.result_int() == 200; }

private:
  std::string request_;
};

load_result run(const stalling_server& server, double rate, std::chrono::milliseconds duration,
                std::size_t connections = 1, std::size_t threads = 1, std::chrono::milliseconds drain = 5s) {
  load_options o;
  o.server = server.target();
  o.rate = rate;
  o.duration = duration;
  o.connections = connections;
  o.threads = threads;
  o.drain = drain;
  return svc::bench::run_load(o, [&](std::size_t) { return std::make_unique<get_source>(o.server); });
}

uint64_t series_requests(const load_result& r) {
  uint64_t n = 0;
  for (auto& row : r.series)
    n += row.requests;
  return n;
}

} // namespace

// Request 50 of 200 (due at 0.5 s) is held 1 s: the 100 requests due
// meanwhile wait for the one connection, and their latency runs from when
// they were due, so over a third of all take 300 ms or more (those due by
// 1.19 s), and p80 shows it. Closed
// loop, the same stall is one slow sample among thousands of fast ones:
// coordinated omission, which the open loop is there to avoid.
BOOST_AUTO_TEST_CASE(open_loop_latency_runs_from_the_intended_send_so_a_stall_shows) {
  stalling_server server(50, 1000ms);
  const auto r = run(server, 100, 2000ms);
  BOOST_TEST(r.requests() == 200U);
  BOOST_TEST(r.ok() == 200U);
  BOOST_TEST(r.unsent == 0U);
  BOOST_TEST(r.unfinished == 0U);
  BOOST_TEST(r.max_backlog >= 50U);
  BOOST_TEST(r.latency.percentile_ns(0.8) >= 300'000'000U, r.latency.percentile_ns(0.8));
  BOOST_TEST(r.latency.max_ns() >= 900'000'000U);
  BOOST_TEST(series_requests(r) == r.requests());

  stalling_server closed_server(50, 1000ms);
  const auto c = run(closed_server, 0, 2000ms);
  BOOST_TEST(c.requests() > 200U);
  BOOST_TEST(c.latency.max_ns() >= 900'000'000U);
  BOOST_TEST(c.latency.percentile_ns(0.8) < 300'000'000U, c.latency.percentile_ns(0.8));
}

BOOST_AUTO_TEST_CASE(open_loop_threads_share_the_rate) {
  stalling_server server(0, 0ms);
  const auto r = run(server, 200, 1000ms, 4, 2);
  BOOST_TEST(r.requests() == 200U);
  BOOST_TEST(r.ok() == 200U);
  BOOST_TEST(r.unsent == 0U);
  BOOST_TEST(r.kinds.size() == 1U);
  BOOST_TEST(r.kinds[0].counts.of(200) == 200U);
}

// Request 10 of 50 is held 1.5 s, past the 1 s window: the 40 due after it
// wait for the one connection and go in the drain, late, and count.
BOOST_AUTO_TEST_CASE(requests_due_in_the_window_still_go_in_the_drain) {
  stalling_server server(10, 1500ms);
  const auto r = run(server, 50, 1000ms);
  BOOST_TEST(r.requests() == 50U);
  BOOST_TEST(r.ok() == 50U);
  BOOST_TEST(r.unsent == 0U);
  BOOST_TEST(r.unfinished == 0U);
  BOOST_TEST(r.max_backlog >= 39U);
  BOOST_TEST(r.latency.max_ns() >= 1'400'000'000U);
  BOOST_TEST(r.series.size() >= 2U);
}

// Request 10 of 50 is held 3 s, past the 1 s window and its 0.5 s drain: it
// ends unanswered, and the 40 due after it were never sent.
BOOST_AUTO_TEST_CASE(a_request_still_unanswered_after_the_drain_is_counted_so) {
  stalling_server server(10, 3000ms);
  const auto r = run(server, 50, 1000ms, 1, 1, 500ms);
  BOOST_TEST(r.requests() == 9U);
  BOOST_TEST(r.unfinished == 1U);
  BOOST_TEST(r.unsent == 40U);
}

BOOST_AUTO_TEST_CASE(closed_loop_counts_the_answers_inside_the_window) {
  stalling_server server(0, 0ms);
  const auto r = run(server, 0, 300ms, 2);
  BOOST_TEST(r.requests() > 0U);
  BOOST_TEST(r.ok() == r.requests());
  BOOST_TEST(r.unsent == 0U);
  BOOST_TEST(r.series.size() >= 1U);
  BOOST_TEST(series_requests(r) == r.requests());
  BOOST_TEST(r.latency.count() == r.ok());
}

BOOST_AUTO_TEST_SUITE_END()
