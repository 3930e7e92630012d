#include "clients/webhook_client.hpp"

#include <boost/test/unit_test.hpp>

#include <condition_variable>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "bench/receiver/https_receiver.hpp"
#include "bench/receiver/test_ca.hpp"
#include "core/crypto.hpp"

BOOST_AUTO_TEST_SUITE(clients_webhook_client)

namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using namespace svc::actors;
using namespace svc::clients;
using namespace svc::receiver;
using svc::schema::delivery_error;
using steady = std::chrono::steady_clock;

// One CA for the whole run; its certificate in a temporary directory.
struct pki_files {
  pki_files() : dir(fs::temp_directory_path() / ("svc-webhook-client-" + svc::core::random_hex(6))) {
    pki = svc::receiver::make_test_pki();
    svc::receiver::write_test_pki(pki, dir);
  }
  ~pki_files() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  fs::path dir;
  svc::receiver::test_pki pki;
};

pki_files& files() {
  static pki_files f;
  return f;
}

webhook_client_options options(std::chrono::milliseconds timeout = 5000ms) {
  webhook_client_options o;
  o.ca_file = (files().dir / "ca.pem").string();
  o.allow_private = true;
  o.timeout = timeout;
  return o;
}

receiver_options trusted() { return {files().pki.server}; }

// Answers collected from `done`, waited for with a deadline.
struct answers {
  std::mutex mutex;
  std::condition_variable cv;
  std::vector<webhook_answer> got;

  std::function<void(webhook_answer)> sink() {
    return [this](webhook_answer a) {
      std::lock_guard lock(mutex);
      got.push_back(std::move(a));
      cv.notify_all();
    };
  }
  bool wait_for(std::size_t n, std::chrono::milliseconds within = 10s) {
    std::unique_lock lock(mutex);
    return cv.wait_for(lock, within, [&] { return got.size() >= n; });
  }
  std::size_t count() {
    std::lock_guard lock(mutex);
    return got.size();
  }
};

webhook_post make_post(std::string url, std::string body = "{}") {
  return {std::move(url), {{"Content-Type", "application/json"}}, std::move(body)};
}

// Posts and waits (bounded) for the answer.
webhook_answer post_and_wait(webhook_client& c, webhook_post p) {
  answers a;
  c.post(std::move(p), a.sink());
  BOOST_REQUIRE(a.wait_for(1, 15s));
  return a.got.front();
}

// Polls `pred` until it holds or `within` passes.
bool eventually(const std::function<bool()>& pred, std::chrono::milliseconds within = 5s) {
  auto deadline = steady::now() + within;
  while (!pred()) {
    if (steady::now() > deadline)
      return false;
    std::this_thread::sleep_for(2ms);
  }
  return true;
}

reply status_reply(unsigned status, std::string body = {}) {
  reply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// A reply of `status` sent `delay` after the request.
reply delayed_reply(unsigned status, std::chrono::milliseconds delay) {
  reply r = status_reply(status);
  r.delay = delay;
  return r;
}

} // namespace

BOOST_AUTO_TEST_CASE(success_captures_status_request_and_first_kib_of_body) {
  https_receiver rx(trusted());
  std::string big(5 * 1024, 'x');
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<char>('a' + i % 26);
  rx.set_reply(status_reply(200, big));
  webhook_client client(options());
  webhook_post p{rx.url("/hooks?x=1"), {{"Svc-Event-Id", "evt_1"}, {"X-Custom", "v 1"}}, R"({"a":1})"};
  auto a = post_and_wait(client, p);
  BOOST_TEST(a.succeeded());
  BOOST_TEST(a.detail == "");
  BOOST_REQUIRE(a.status.has_value());
  BOOST_TEST(*a.status == 200);
  BOOST_TEST(a.body.size() == 1024u);
  BOOST_TEST(a.body == big.substr(0, 1024));
  BOOST_TEST(a.duration.count() >= 0);

  auto reqs = rx.requests();
  BOOST_REQUIRE(reqs.size() == 1u);
  BOOST_TEST(reqs[0].method == "POST");
  BOOST_TEST(reqs[0].target == "/hooks?x=1");
  BOOST_TEST(reqs[0].body == R"({"a":1})");
  BOOST_TEST(reqs[0].header("Host").value_or("") == "127.0.0.1:" + std::to_string(rx.port()));
  BOOST_TEST(reqs[0].header("Content-Length").value_or("") == "7");
  BOOST_TEST(reqs[0].header("svc-event-id").value_or("") == "evt_1");
  BOOST_TEST(reqs[0].header("X-Custom").value_or("") == "v 1");
}

BOOST_AUTO_TEST_CASE(dns_name_is_resolved_and_verified) {
  https_receiver rx(trusted());
  webhook_client client(options());
  auto a = post_and_wait(client, make_post("https://localhost:" + std::to_string(rx.port()) + "/h"));
  BOOST_TEST(a.succeeded(), a.detail);
  BOOST_TEST(rx.requests().at(0).header("Host").value_or("") == "localhost:" + std::to_string(rx.port()));
}

BOOST_AUTO_TEST_CASE(sequential_posts_reuse_one_connection) {
  https_receiver rx(trusted());
  webhook_client client(options());
  for (int i = 0; i < 50; ++i) {
    auto a = post_and_wait(client, make_post(rx.url(), std::to_string(i)));
    BOOST_REQUIRE_MESSAGE(a.succeeded(), a.detail);
  }
  BOOST_TEST(rx.request_count() == 50u);
  BOOST_TEST(rx.accepted_connections() == 1u);
}

BOOST_AUTO_TEST_CASE(concurrent_posts_all_complete) {
  https_receiver rx(trusted());
  rx.set_reply(delayed_reply(204, 20ms));
  webhook_client client(options());
  answers got;
  for (int i = 0; i < 100; ++i)
    client.post(make_post(rx.url(), std::to_string(i)), got.sink());
  BOOST_REQUIRE(got.wait_for(100, 15s));
  for (auto& a : got.got)
    BOOST_TEST(a.succeeded(), a.detail);
  BOOST_TEST(rx.request_count() == 100u);
  BOOST_TEST(rx.accepted_connections() > 1u);  // not one at a time
  BOOST_TEST(rx.accepted_connections() <= 64u); // the per-host cap
}

BOOST_AUTO_TEST_CASE(status_500_is_http_5xx) {
  https_receiver rx(trusted());
  rx.set_reply(status_reply(500, "oops"));
  webhook_client client(options());
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST((a.error == delivery_error::http_5xx));
  BOOST_TEST(a.status.value_or(0) == 500);
  BOOST_TEST(a.body == "oops");
  BOOST_TEST(a.detail == "HTTP 500");
}

BOOST_AUTO_TEST_CASE(status_404_is_http_4xx) {
  https_receiver rx(trusted());
  rx.set_reply(status_reply(404));
  webhook_client client(options());
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST((a.error == delivery_error::http_4xx));
  BOOST_TEST(a.status.value_or(0) == 404);
}

BOOST_AUTO_TEST_CASE(redirect_is_http_4xx_and_not_followed) {
  https_receiver rx(trusted());
  rx.set_handler([&](const svc::receiver::received_request& r) {
    if (r.target != "/hooks")
      return status_reply(200);
    reply moved = status_reply(302);
    moved.headers = {{"Location", rx.url("/elsewhere")}};
    return moved;
  });
  webhook_client client(options());
  auto a = post_and_wait(client, make_post(rx.url("/hooks")));
  BOOST_TEST((a.error == delivery_error::http_4xx));
  BOOST_TEST(a.status.value_or(0) == 302);
  BOOST_TEST(a.detail.find("redirect") != std::string::npos);
  BOOST_TEST(rx.request_count() == 1u);
}

BOOST_AUTO_TEST_CASE(slow_receiver_times_out_within_the_deadline) {
  // The receiver's answer after 5 s is the yardstick, not the test's clock:
  // a deadline that did not fire first would let the 200 through.
  https_receiver rx(trusted());
  rx.set_reply(delayed_reply(200, 5s));
  webhook_client client(options(300ms));
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST((a.error == delivery_error::timeout));
  BOOST_TEST(!a.status.has_value());
  BOOST_TEST(a.detail.find("no answer within 300 ms") != std::string::npos, a.detail);
  BOOST_TEST(a.duration.count() >= 290);
}

BOOST_AUTO_TEST_CASE(the_deadline_starts_when_the_attempt_gets_a_connection) {
  // One connection to the host, each answer after 300 ms: the fifth post
  // waits at least 1200 ms for the connection, longer than its 1 s deadline,
  // which leaves each attempt 700 ms beyond its answer's delay.
  https_receiver rx(trusted());
  rx.set_reply(delayed_reply(204, 300ms));
  auto o = options(1000ms);
  o.max_open_per_host = 1;
  webhook_client client(o);
  answers got;
  for (int i = 0; i < 5; ++i)
    client.post(make_post(rx.url(), std::to_string(i)), got.sink());
  BOOST_REQUIRE(got.wait_for(5, 30s));
  for (auto& a : got.got)
    BOOST_TEST(a.succeeded(), a.detail);
  // A duration counted from the post would include the wait: 1200 ms at least.
  BOOST_TEST(got.got.back().duration.count() < 1200, "the duration is the attempt's own, not its wait");
  BOOST_TEST(rx.request_count() == 5u);
  BOOST_TEST(rx.accepted_connections() == 1u);
}

BOOST_AUTO_TEST_CASE(a_post_that_waits_too_long_for_a_connection_times_out_untried) {
  https_receiver rx(trusted());
  rx.set_reply(delayed_reply(204, 1500ms));
  auto o = options(5s);
  o.max_open_per_host = 1;
  o.queue_timeout = 200ms;
  webhook_client client(o);
  answers got;
  client.post(make_post(rx.url(), "first"), got.sink());
  client.post(make_post(rx.url(), "second"), got.sink());
  BOOST_REQUIRE(got.wait_for(1, 5s));
  {
    std::lock_guard lock(got.mutex);
    auto& queued = got.got.front();
    BOOST_TEST((queued.error == delivery_error::timeout));
    BOOST_TEST(queued.detail.find("no connection to the host") != std::string::npos, queued.detail);
    BOOST_TEST(queued.duration.count() == 0);
  }
  BOOST_REQUIRE(got.wait_for(2, 10s));
  BOOST_TEST(got.got.back().succeeded(), got.got.back().detail);
  BOOST_TEST(rx.request_count() == 1u, "the queued post never reached the host");
}

BOOST_AUTO_TEST_CASE(closed_port_is_connect_refused) {
  unsigned short port;
  {
    boost::asio::io_context ioc;
    boost::asio::ip::tcp::acceptor a(ioc, {boost::asio::ip::make_address("127.0.0.1"), 0});
    port = a.local_endpoint().port();
  }
  webhook_client client(options());
  auto a = post_and_wait(client, make_post("https://127.0.0.1:" + std::to_string(port) + "/hooks"));
  BOOST_TEST((a.error == delivery_error::connect_refused), a.detail);
  BOOST_TEST(!a.status.has_value());
}

BOOST_AUTO_TEST_CASE(untrusted_certificate_is_tls_error) {
  https_receiver rx(receiver_options{svc::receiver::make_untrusted_server()});
  webhook_client client(options());
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST((a.error == delivery_error::tls_error), a.detail);
  BOOST_TEST(a.detail.find("TLS handshake") != std::string::npos);
  BOOST_TEST(rx.request_count() == 0u);
}

BOOST_AUTO_TEST_CASE(private_addresses_refused_before_connecting) {
  https_receiver rx(trusted());
  auto o = options();
  o.allow_private = false;
  webhook_client client(o);
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST((a.error == delivery_error::connect_error));
  // The detail reaches API clients (delivery rows): it names no address or range.
  BOOST_TEST(a.detail == "destination not allowed");
  // A name is checked on every address it resolves to.
  auto b = post_and_wait(client, make_post("https://localhost:" + std::to_string(rx.port()) + "/"));
  BOOST_TEST((b.error == delivery_error::connect_error));
  BOOST_TEST(b.detail == "destination not allowed");
  BOOST_TEST(rx.accepted_connections() == 0u);
}

BOOST_AUTO_TEST_CASE(idle_connection_closed_by_server_is_retried_on_a_fresh_one) {
  https_receiver rx(trusted());
  webhook_client client(options());
  BOOST_REQUIRE(post_and_wait(client, make_post(rx.url())).succeeded());
  BOOST_REQUIRE(eventually([&] { return rx.answered() == 1; }));
  rx.close_idle_connections();
  BOOST_REQUIRE(eventually([&] { return rx.open_connections() == 0; }));
  auto a = post_and_wait(client, make_post(rx.url(), "second"));
  BOOST_TEST(a.succeeded(), a.detail);
  BOOST_TEST(rx.accepted_connections() == 2u);
  BOOST_TEST(rx.request_count() == 2u);
}

BOOST_AUTO_TEST_CASE(oversized_answer_is_read_by_status_and_connection_not_reused) {
  https_receiver rx(trusted());
  rx.set_reply(status_reply(200, std::string(100 * 1024, 'z')));
  webhook_client client(options());
  auto a = post_and_wait(client, make_post(rx.url()));
  BOOST_TEST(a.succeeded(), a.detail);
  BOOST_TEST(a.status.value_or(0) == 200);
  BOOST_TEST(a.body.size() <= 1024u);
  BOOST_TEST(post_and_wait(client, make_post(rx.url())).succeeded());
  BOOST_TEST(rx.accepted_connections() == 2u);
}

BOOST_AUTO_TEST_CASE(bad_url_and_bad_header_fail_without_traffic) {
  https_receiver rx(trusted());
  webhook_client client(options());
  auto a = post_and_wait(client, make_post("http://127.0.0.1:" + std::to_string(rx.port()) + "/"));
  BOOST_TEST((a.error == delivery_error::connect_error));
  BOOST_TEST(a.detail.find("invalid URL") != std::string::npos);
  webhook_post p = make_post(rx.url());
  p.headers.push_back({"X-Secret", "s3cr3t\r\nEvil: 1"});
  auto b = post_and_wait(client, p);
  BOOST_TEST((b.error == delivery_error::connect_error));
  BOOST_TEST(b.detail.find("s3cr3t") == std::string::npos);
  BOOST_TEST(rx.accepted_connections() == 0u);
}

BOOST_AUTO_TEST_CASE(stop_answers_every_post_in_flight) {
  https_receiver rx(trusted());
  rx.set_reply(delayed_reply(200, 10s));
  webhook_client client(options(30000ms));
  answers got;
  for (int i = 0; i < 10; ++i)
    client.post(make_post(rx.url()), got.sink());
  BOOST_REQUIRE(rx.wait_for(10, steady::now() + 10s));
  client.stop();
  // Answered by the stop, not by the receiver's 200s ten seconds later.
  BOOST_TEST(got.count() == 10u);
  for (auto& a : got.got)
    BOOST_TEST((a.error == delivery_error::connect_error));
  client.stop(); // idempotent
  client.post(make_post(rx.url()), got.sink());
  BOOST_TEST(got.count() == 11u); // answered at once after stop
  BOOST_TEST(got.got.back().detail == "client stopped");
}

BOOST_AUTO_TEST_SUITE_END()
