#include "http/session_impl.hpp"

#include <boost/test/unit_test.hpp>

#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/_experimental/test/stream.hpp>

#include "core/config.hpp"
#include "http/protocol_errors.hpp"

namespace svc::http {

/// Beast's in-memory stream: the session's bytes go to a peer stream the
/// test reads, and the test's bytes arrive as if from a client.
template <>
struct stream_ops<beast::test::stream> {
  static net::ip::address peer(beast::test::stream&, beast::error_code&) { return net::ip::make_address("127.0.0.1"); }
  /// The peer's end closes: a read in flight ends with `eof`, as after a shutdown.
  static void shutdown_receive(beast::test::stream& s) { s.close_remote(); }
  /// The test stream cannot half-close; the client sees the end when the session closes.
  static void shutdown_send(beast::test::stream&) {}
  static void close(beast::test::stream& s) { s.close(); }
  static beast::test::stream& raw(beast::test::stream& s) { return s; }
};

template class basic_session<beast::test::stream>;

} // namespace svc::http

namespace {

using namespace svc::http;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;
using test_session = basic_session<beast::test::stream>;

// An application that keeps what arrives and answers when the test says.
struct fake_app final : exchange_handler {
  svc::core::config cfg;
  bool stream_bodies = false;
  std::vector<http_request> requests;
  std::vector<std::shared_ptr<body_source>> bodies;
  std::vector<responder> answers;
  std::vector<protocol_error> errors;

  bool streams_body(const http_request&) const override { return stream_bodies; }
  void on_request(http_request req, std::shared_ptr<body_source> body, const peer_info&, responder done) override {
    requests.push_back(std::move(req));
    bodies.push_back(std::move(body));
    answers.push_back(std::move(done));
  }
  // Answers at once, with the catalogue's status and code as the API does.
  void on_protocol_error(protocol_error e, const std::string& detail, const peer_info&, responder done) override {
    errors.push_back(e);
    auto err = protocol_api_error(e, detail, cfg);
    std::string body = "{\"code\":\"" + std::string(svc::schema::to_string(err.code)) + "\",\"message\":\"" + err.message + "\"}";
    done(response(svc::schema::info(err.code).status, std::move(body)));
  }

  static outgoing_response response(int status, std::string body) {
    outgoing_response r;
    r.head = "HTTP/1.1 " + std::to_string(status) + " X\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    r.body = std::move(body);
    return r;
  }
};

// One session over a test stream, and the client's end of it.
struct session_fixture {
  net::io_context ioc;
  beast::test::stream client{ioc};
  transport_limits limits;
  fake_app app;
  std::shared_ptr<connection_tracker> tracker = std::make_shared<connection_tracker>();
  std::shared_ptr<test_session> session;

  session_fixture() {
    tracker->budget = std::make_shared<response_budget>(64u << 20);
    limits.read_timeout = 30s;
    limits.busy_idle_timeout = 5s;
  }

  void start() {
    beast::test::stream server{ioc};
    server.connect(client);
    session = std::make_shared<test_session>(std::move(server), limits, app, tracker);
    session->start();
    settle();
  }

  // Runs every handler that is ready; the test stream completes reads and
  // writes without waiting, so this is the state once the bytes have moved.
  void settle() {
    ioc.restart();
    while (ioc.poll() > 0) {
    }
  }

  void send(const std::string& bytes) {
    net::write(client, net::buffer(bytes));
    settle();
  }

  void answer(std::size_t i, std::string body) {
    app.answers.at(i)(fake_app::response(200, std::move(body)));
    settle();
  }

  // What the session wrote so far.
  std::string written() const { return std::string(client.str()); }

  static std::string get(const std::string& path) { return "GET " + path + " HTTP/1.1\r\nHost: t\r\n\r\n"; }
};

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size()))
    ++n;
  return n;
}

} // namespace

BOOST_AUTO_TEST_SUITE(http_session)

BOOST_FIXTURE_TEST_SUITE(session_over_a_test_stream, session_fixture)

BOOST_AUTO_TEST_CASE(pipelined_requests_stop_being_read_at_the_cap) {
  limits.pipeline_limit = 2;
  start();
  send(get("/a") + get("/b") + get("/c") + get("/d"));
  BOOST_TEST(app.requests.size() == 2u, "two unanswered requests: no third is read");
  answer(0, "a");
  BOOST_TEST(app.requests.size() == 3u, "an answer written frees a place");
  BOOST_TEST(app.requests.back().target() == "/c");
  answer(1, "b");
  answer(2, "c");
  BOOST_TEST(app.requests.size() == 4u);
}

BOOST_AUTO_TEST_CASE(answers_leave_in_request_order) {
  start();
  send(get("/a") + get("/b"));
  BOOST_REQUIRE(app.requests.size() == 2u);
  answer(1, "second");
  BOOST_TEST(written().empty(), "the second answer waits for the first");
  answer(0, "first");
  auto out = written();
  BOOST_TEST(count_of(out, "HTTP/1.1 200") == 2u);
  BOOST_TEST(out.find("first") < out.find("second"));
}

BOOST_AUTO_TEST_CASE(a_content_length_over_the_limit_is_413_before_the_body) {
  limits.body_limit = 100;
  app.cfg.body_limit = 100;
  start();
  send("POST /v1/images HTTP/1.1\r\nHost: t\r\nContent-Length: 101\r\n\r\n");
  BOOST_TEST(app.requests.empty());
  BOOST_REQUIRE(app.errors.size() == 1u);
  BOOST_TEST((app.errors[0] == protocol_error::body_too_large));
  auto out = written();
  BOOST_TEST(out.rfind("HTTP/1.1 413", 0) == 0u, out);
  BOOST_TEST(out.find("\"code\":\"body_too_large\"") != std::string::npos, out);
  BOOST_TEST(out.find("100 bytes") != std::string::npos, out);
  BOOST_TEST(out.find("Connection: close\r\n") != std::string::npos, out);
  send(get("/after"));
  BOOST_TEST(app.requests.empty(), "nothing is read after the refused body");
}

BOOST_AUTO_TEST_CASE(a_chunked_body_growing_past_the_limit_is_413) {
  limits.body_limit = 100;
  app.cfg.body_limit = 100;
  start();
  send("POST /v1/images HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n40\r\n" + std::string(64, 'x') + "\r\n");
  BOOST_TEST(app.errors.empty(), "64 bytes are within the limit");
  send("40\r\n" + std::string(64, 'y') + "\r\n0\r\n\r\n");
  BOOST_REQUIRE(app.errors.size() == 1u);
  BOOST_TEST((app.errors[0] == protocol_error::body_too_large));
  BOOST_TEST(app.requests.empty());
  BOOST_TEST(written().rfind("HTTP/1.1 413", 0) == 0u, written());
}

BOOST_AUTO_TEST_CASE(a_body_at_the_limit_is_read_whole) {
  limits.body_limit = 100;
  start();
  send("POST /v1/images HTTP/1.1\r\nHost: t\r\nContent-Length: 100\r\n\r\n" + std::string(100, 'z'));
  BOOST_TEST(app.errors.empty());
  BOOST_REQUIRE(app.requests.size() == 1u);
  BOOST_TEST(app.requests[0].body() == std::string(100, 'z'));
}

BOOST_AUTO_TEST_CASE(headers_over_the_limit_are_431) {
  limits.header_limit = 256;
  start();
  send("GET / HTTP/1.1\r\nHost: t\r\nX-Long: " + std::string(300, 'h') + "\r\n\r\n");
  BOOST_REQUIRE(app.errors.size() == 1u);
  BOOST_TEST((app.errors[0] == protocol_error::headers_too_large));
  BOOST_TEST(written().rfind("HTTP/1.1 431", 0) == 0u, written());
}

// The read deadline is checked by the listener's sweep with the time it
// passes in: the test passes in the time it wants to be.
BOOST_AUTO_TEST_CASE(the_read_deadline_covers_the_whole_request) {
  auto before = steady::now();
  start();
  BOOST_TEST(!session->overdue(steady::now(), false));
  send("GET / HTTP/1.1\r\n");
  send("Host: t\r\n"); // a trickle does not move the deadline
  BOOST_TEST(!session->overdue(before + limits.read_timeout - 1s, false));
  BOOST_TEST(session->overdue(steady::now() + limits.read_timeout + 1ms, false));
  BOOST_REQUIRE(tracker->count() == 1u);
  session->expire();
  settle();
  BOOST_TEST(tracker->count() == 0u, "the sweep's expiry closes the connection");
  BOOST_TEST(app.requests.empty());
}

BOOST_AUTO_TEST_CASE(a_request_read_whole_clears_its_deadline_while_it_waits_for_the_answer) {
  limits.pipeline_limit = 1;
  start();
  send(get("/slow"));
  BOOST_REQUIRE(app.requests.size() == 1u);
  // Nothing is being read (the pipeline is full): a slow answer is no reason to close.
  BOOST_TEST(!session->overdue(steady::now() + limits.read_timeout + 1h, false));
  answer(0, "late");
  BOOST_TEST(written().find("late") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_busy_server_waits_less_for_a_request_head) {
  start();
  auto later = steady::now() + limits.busy_idle_timeout + 1ms;
  BOOST_TEST(!session->overdue(later, false), "not busy: the read timeout applies");
  BOOST_TEST(session->overdue(later, true));
}

BOOST_AUTO_TEST_CASE(a_streamed_body_gets_one_free_window_then_must_keep_the_rate) {
  app.stream_bodies = true;
  limits.body_rate_bytes = 10;
  limits.body_rate_window = 10s;
  limits.body_deadline = 1min;
  start();
  send("POST /v1/files HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n");
  BOOST_REQUIRE(app.bodies.size() == 1u);
  std::string got;
  std::optional<body_end> end;
  auto started = steady::now();
  app.bodies[0]->read(1000, [&](std::string_view b) { got.append(b); return true; }, [&](body_end e) { end = e; });
  settle();
  // The first window is free: the rate's first bytes are due at the end of the second.
  BOOST_TEST(!session->overdue(started + 2 * limits.body_rate_window - 1s, false));
  BOOST_TEST(session->overdue(steady::now() + 2 * limits.body_rate_window + 1ms, false));
  send(std::string(5, 'b'));
  BOOST_TEST(got == std::string(5, 'b'));
  session->expire();
  settle();
  BOOST_REQUIRE(end.has_value());
  BOOST_TEST((*end == body_end::too_slow), "the application learns why and may answer 408");
}

BOOST_AUTO_TEST_CASE(a_streamed_body_ends_within_its_deadline_whatever_its_rate) {
  app.stream_bodies = true;
  limits.body_rate_window = 10s;
  limits.body_deadline = 15s;
  start();
  send("POST /v1/files HTTP/1.1\r\nHost: t\r\nContent-Length: 1000\r\n\r\n");
  BOOST_REQUIRE(app.bodies.size() == 1u);
  auto started = steady::now();
  app.bodies[0]->read(1000, [](std::string_view) { return true; }, [](body_end) {});
  settle();
  BOOST_TEST(!session->overdue(started + limits.body_deadline - 1s, false));
  BOOST_TEST(session->overdue(steady::now() + limits.body_deadline + 1ms, false), "before the second window ends");
}

BOOST_AUTO_TEST_CASE(expect_100_continue_is_answered_once_the_body_is_asked_for) {
  app.stream_bodies = true;
  start();
  send("PUT /v1/files HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n");
  BOOST_REQUIRE(app.bodies.size() == 1u);
  BOOST_TEST(written().empty(), "no 100 before the application wants the body");
  std::string got;
  std::optional<body_end> end;
  app.bodies[0]->read(100, [&](std::string_view b) { got.append(b); return true; }, [&](body_end e) { end = e; });
  settle();
  BOOST_TEST(written() == "HTTP/1.1 100 Continue\r\n\r\n");
  send("hello");
  BOOST_REQUIRE(end.has_value());
  BOOST_TEST((*end == body_end::complete));
  BOOST_TEST(got == "hello");
  answer(0, "stored");
  BOOST_TEST(written().find("HTTP/1.1 200") != std::string::npos);
  BOOST_TEST(written().find("Connection: close") == std::string::npos, "a body read whole keeps the connection");
}

BOOST_AUTO_TEST_CASE(expect_100_continue_refused_on_its_head_gets_no_100) {
  app.stream_bodies = true;
  start();
  send("PUT /v1/files HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5000000\r\n\r\n");
  BOOST_REQUIRE(app.answers.size() == 1u);
  app.answers[0](fake_app::response(401, "no key"));
  settle();
  auto out = written();
  BOOST_TEST(out.find("100 Continue") == std::string::npos, out);
  BOOST_TEST(out.rfind("HTTP/1.1 401", 0) == 0u, out);
  BOOST_TEST(out.find("Connection: close\r\n") != std::string::npos, "the unread body is still on the wire");
}

BOOST_AUTO_TEST_CASE(a_second_request_waits_for_100_continue_until_the_first_is_answered) {
  // A 100 must not come before an earlier request's answer.
  app.stream_bodies = true; // asked of requests with a body only
  start();
  send(get("/first"));
  send("PUT /v1/files HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n");
  BOOST_REQUIRE(app.bodies.size() == 2u);
  std::optional<body_end> end;
  app.bodies[1]->read(100, [](std::string_view) { return true; }, [&](body_end e) { end = e; });
  settle();
  BOOST_TEST(written().empty(), "the first request is still unanswered");
  send("ok");
  BOOST_REQUIRE(end.has_value());
  BOOST_TEST((*end == body_end::complete));
  answer(0, "first");
  answer(1, "second");
  BOOST_TEST(written().find("100 Continue") == std::string::npos, written());
  BOOST_TEST(count_of(written(), "HTTP/1.1 200") == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
