#include "providers/remote/http_exchange.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/asio/steady_timer.hpp>

#include "a1111_server.hpp"
#include "providers/remote/a1111_protocol.hpp"

BOOST_AUTO_TEST_SUITE(providers_http_exchange)

using namespace svc::providers;
using svc::test::a1111_mode;
using svc::test::a1111_server;
using namespace std::chrono_literals;
namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using steady = std::chrono::steady_clock;

namespace {

std::vector<net::ip::tcp::endpoint> loopback(std::uint16_t port) {
  return {net::ip::tcp::endpoint(net::ip::make_address("127.0.0.1"), port)};
}

exchange_request render_request_to(std::uint16_t port, std::chrono::milliseconds limit = 5s) {
  render_request req;
  req.width = req.height = 64;
  exchange_request r;
  r.method = bhttp::verb::post;
  r.target = std::string(a1111_txt2img_path);
  r.host = "127.0.0.1:" + std::to_string(port);
  r.body = a1111_render_body(req);
  r.connect_deadline = r.deadline = steady::now() + limit;
  return r;
}

exchange_answer run(std::uint16_t port, exchange_request r) {
  net::io_context ioc;
  std::optional<exchange_answer> got;
  http_exchange::start(ioc, loopback(port), std::move(r), [&](exchange_answer a) { got = std::move(a); });
  ioc.run();
  BOOST_REQUIRE(got);
  return *got;
}

} // namespace

BOOST_AUTO_TEST_CASE(an_answer_arrives_with_status_and_body) {
  a1111_server fake;
  auto r = render_request_to(fake.port());
  r.authorization = "Basic dTpw";
  auto a = run(fake.port(), std::move(r));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::none), a.detail);
  BOOST_TEST(a.status == 200);
  BOOST_TEST(a.body.find("\"images\"") != std::string::npos);
  auto seen = fake.requests();
  BOOST_REQUIRE(seen.size() == 1u);
  BOOST_TEST(seen[0].method == "POST");
  BOOST_TEST(seen[0].authorization == "Basic dTpw");
}

BOOST_AUTO_TEST_CASE(an_error_status_is_an_answer_too) {
  a1111_server fake(a1111_mode::fail_500);
  auto a = run(fake.port(), render_request_to(fake.port()));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::none));
  BOOST_TEST(a.status == 500);
  BOOST_TEST(a.body.find("CUDA out of memory") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_closed_port_is_connect_failed) {
  a1111_server fake;
  fake.close();
  auto a = run(fake.port(), render_request_to(fake.port()));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::connect_failed));
  BOOST_TEST(!a.detail.empty());
}

BOOST_AUTO_TEST_CASE(a_hang_up_is_connection_lost) {
  a1111_server fake(a1111_mode::hang_up);
  auto a = run(fake.port(), render_request_to(fake.port()));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::connection_lost), a.detail);
}

BOOST_AUTO_TEST_CASE(a_body_over_the_limit_is_too_large) {
  a1111_server fake;
  auto r = render_request_to(fake.port());
  r.body_limit = 100;
  auto a = run(fake.port(), std::move(r));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::too_large), a.detail);
  BOOST_TEST(a.detail == "a body over 100 bytes");
}

BOOST_AUTO_TEST_CASE(the_deadline_ends_a_slow_answer) {
  // The server's answer after 5 s is the yardstick, not the test's own clock:
  // a deadline that did not end the exchange first lets the answer through.
  a1111_server fake(a1111_mode::slow);
  fake.set_slow_time(5s);
  auto start = steady::now();
  auto a = run(fake.port(), render_request_to(fake.port(), 200ms));
  BOOST_TEST(static_cast<int>(a.fault) == static_cast<int>(exchange_fault::timed_out), a.detail);
  BOOST_TEST((steady::now() - start >= 200ms));
}

BOOST_AUTO_TEST_CASE(abort_drops_the_exchange_without_calling_done) {
  a1111_server fake(a1111_mode::slow);
  net::io_context ioc;
  bool called = false;
  // The server would answer after a minute and the deadline is later still,
  // so only the abort can leave the io_context without work within 30 s.
  auto ex = http_exchange::start(ioc, loopback(fake.port()), render_request_to(fake.port(), 10min),
                                 [&](exchange_answer) { called = true; });
  net::steady_timer timer(ioc, 100ms);
  timer.async_wait([&](boost::system::error_code) { ex->abort(); });
  ioc.run_for(30s);
  BOOST_TEST(ioc.stopped(), "run() returns once the exchange is aborted");
  BOOST_TEST(!called);
}

BOOST_AUTO_TEST_CASE(localhost_resolves_and_unknown_ports_are_numbers) {
  std::string why;
  auto eps = resolve_endpoints("localhost", 7860, why);
  BOOST_TEST(!eps.empty(), why);
  for (auto& ep : eps) {
    BOOST_TEST(ep.address().is_loopback());
    BOOST_TEST(ep.port() == 7860);
  }
}

BOOST_AUTO_TEST_SUITE_END()
