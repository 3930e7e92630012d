#include "clients/etcd_client.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <ostream>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/read_until.hpp>
#include <boost/asio/write.hpp>

#include "etcd_server.hpp"
#include "tests/support/loopback_listener.hpp"

namespace svc::clients {
// For BOOST_TEST's messages.
std::ostream& operator<<(std::ostream& os, etcd_error::kind k) {
  static const char* const names[] = {"unreachable", "timeout", "rejected", "lease_expired", "compacted",
                                      "unauthenticated"};
  return os << names[static_cast<int>(k)];
}
} // namespace svc::clients

namespace {

namespace net = boost::asio;
using tcp = net::ip::tcp;
using svc::clients::etcd_client;
using svc::clients::etcd_error;
using svc::clients::etcd_event;
using svc::clients::etcd_event_kind;
using kind = etcd_error::kind;
using namespace std::chrono_literals;
using steady = std::chrono::steady_clock;

constexpr auto client_timeout = 2000ms;

// One etcd for the whole module (a start takes about a second); each test
// keeps to keys under its own prefix.
svc::test::etcd_server& shared_etcd() {
  static svc::test::etcd_server server;
  return server;
}

etcd_client client() {
  return etcd_client{{shared_etcd().endpoint()}, client_timeout};
}

// One etcd with TLS, client certificates and RBAC for the secured cases.
svc::test::etcd_server& secured_etcd() {
  static svc::test::etcd_server server{svc::test::etcd_mode::secured};
  return server;
}

// A client of the secured etcd with what `edit` leaves of its credentials.
template <class Edit>
etcd_client secured_client(Edit edit) {
  auto c = secured_etcd().credentials();
  svc::clients::etcd_tls_files tls{c.ca, c.cert, c.key};
  std::string user = c.user;
  std::string password = c.password;
  edit(tls, user, password);
  return etcd_client{{secured_etcd().endpoint()}, client_timeout, svc::clients::etcd_security{tls, user, password}};
}

etcd_client secured_client() {
  return secured_client([](auto&...) {});
}

long long ms_since(steady::time_point start) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(steady::now() - start).count();
}

// A loopback port nothing listens on: the kernel's pick, released again.
std::string dead_endpoint() {
  net::io_context ioc;
  tcp::acceptor probe{ioc, {net::ip::make_address("127.0.0.1"), 0}};
  return "127.0.0.1:" + std::to_string(probe.local_endpoint().port());
}

// Runs `call` and returns the kind of etcd_error it throws (fails the test if none).
template <class Call>
kind failure_of(Call call) {
  try {
    call();
  } catch (const etcd_error& e) {
    BOOST_TEST_MESSAGE("etcd_error: " << e.what());
    return e.which();
  }
  BOOST_FAIL("no etcd_error thrown");
  return kind::rejected;
}

// A server that reads each request's header and answers it with fixed bytes
// (nothing when `reply` is empty), then ends its side of the connection.
class canned_server {
public:
  explicit canned_server(std::string reply) : reply_(std::move(reply)) {
    accept();
    listener_.start();
  }
  ~canned_server() {
    listener_.stop([this] {
      for (auto& s : sockets_)
        s->close();
    });
  }
  std::string endpoint() const { return "127.0.0.1:" + std::to_string(listener_.port); }

private:
  void accept() {
    listener_.acceptor.async_accept([this](boost::system::error_code ec, tcp::socket s) {
      if (ec)
        return;
      auto socket = std::make_shared<tcp::socket>(std::move(s));
      sockets_.push_back(socket);
      auto head = std::make_shared<std::string>();
      net::async_read_until(*socket, net::dynamic_buffer(*head), "\r\n\r\n",
                            [this, socket, head](boost::system::error_code ec, std::size_t) {
                              if (ec || reply_.empty())
                                return;
                              // Only the sending side ends: closing with the body unread would reset the reply away.
                              net::async_write(*socket, net::buffer(reply_), [socket](boost::system::error_code, std::size_t) {
                                boost::system::error_code ignored;
                                socket->shutdown(tcp::socket::shutdown_send, ignored);
                              });
                            });
      accept();
    });
  }

  svc::test::loopback_listener listener_;
  std::string reply_;
  std::vector<std::shared_ptr<tcp::socket>> sockets_;
};

} // namespace

BOOST_AUTO_TEST_SUITE(clients_etcd_client)

BOOST_AUTO_TEST_SUITE(etcd_client_suite, *boost::unit_test::timeout(60))

BOOST_AUTO_TEST_CASE(put_then_get_returns_the_value_and_its_revisions) {
  auto etcd = client();
  auto first = etcd.put("/get/a", "one");
  auto second = etcd.put("/get/a", "two");
  BOOST_TEST(second > first);
  auto found = etcd.get("/get/a");
  BOOST_TEST_REQUIRE(found.kvs.size() == 1u);
  BOOST_TEST(found.kvs[0].key == "/get/a");
  BOOST_TEST(found.kvs[0].value == "two");
  BOOST_TEST(found.kvs[0].create_revision == first);
  BOOST_TEST(found.kvs[0].mod_revision == second);
  BOOST_TEST(found.kvs[0].lease == 0);
  BOOST_TEST(found.revision >= second);
  BOOST_TEST(etcd.get("/get/absent").kvs.empty());
}

BOOST_AUTO_TEST_CASE(get_prefix_returns_the_keys_under_it_in_order) {
  auto etcd = client();
  etcd.put("/prefix/b", "2");
  etcd.put("/prefix/a", "1");
  etcd.put("/prefix/c", std::string("3\0\xff", 3)); // values are bytes
  etcd.put("/prefix", "not under /prefix/");
  etcd.put("/prefix0", "after the range");
  auto found = etcd.get_prefix("/prefix/");
  BOOST_TEST_REQUIRE(found.kvs.size() == 3u);
  BOOST_TEST(found.kvs[0].key == "/prefix/a");
  BOOST_TEST(found.kvs[1].key == "/prefix/b");
  BOOST_TEST(found.kvs[2].key == "/prefix/c");
  BOOST_TEST(found.kvs[2].value == std::string("3\0\xff", 3));
  BOOST_TEST(etcd.get_prefix("/prefix-none/").kvs.empty());
}

BOOST_AUTO_TEST_CASE(put_if_zero_writes_only_an_absent_key) {
  auto etcd = client();
  BOOST_TEST(etcd.put_if("/cas/new", "first", 0));
  BOOST_TEST(!etcd.put_if("/cas/new", "second", 0));
  BOOST_TEST(etcd.get("/cas/new").kvs.at(0).value == "first");
}

BOOST_AUTO_TEST_CASE(put_if_writes_only_over_the_expected_mod_revision) {
  auto etcd = client();
  auto stale = etcd.put("/cas/map", "v1");
  BOOST_TEST(etcd.put_if("/cas/map", "v2", stale));
  auto current = etcd.get("/cas/map").kvs.at(0);
  BOOST_TEST(current.value == "v2");
  BOOST_TEST(current.mod_revision > stale);
  BOOST_TEST(!etcd.put_if("/cas/map", "v3", stale));
  BOOST_TEST(etcd.get("/cas/map").kvs.at(0).value == "v2");
}

BOOST_AUTO_TEST_CASE(erase_says_whether_the_key_existed) {
  auto etcd = client();
  etcd.put("/erase/a", "x");
  BOOST_TEST(etcd.erase("/erase/a"));
  BOOST_TEST(!etcd.erase("/erase/a"));
  BOOST_TEST(etcd.get("/erase/a").kvs.empty());
}

BOOST_AUTO_TEST_CASE(a_key_under_a_lease_vanishes_on_revoke) {
  auto etcd = client();
  auto lease = etcd.grant_lease(30s);
  etcd.put("/lease/node", "127.0.0.1:1", lease);
  BOOST_TEST(etcd.get("/lease/node").kvs.at(0).lease == lease);
  auto ttl = etcd.keep_alive(lease);
  BOOST_TEST(ttl.count() > 0);
  BOOST_TEST(ttl.count() <= 30);
  etcd.revoke(lease);
  BOOST_TEST(etcd.get("/lease/node").kvs.empty());
}

BOOST_AUTO_TEST_CASE(a_revoked_lease_is_expired) {
  auto etcd = client();
  auto lease = etcd.grant_lease(30s);
  etcd.revoke(lease);
  BOOST_TEST(failure_of([&] { etcd.keep_alive(lease); }) == kind::lease_expired);
  BOOST_TEST(failure_of([&] { etcd.revoke(lease); }) == kind::lease_expired);
  BOOST_TEST(failure_of([&] { etcd.put("/lease/late", "x", lease); }) == kind::lease_expired);
}

BOOST_AUTO_TEST_CASE(watch_prefix_sees_puts_and_erases_in_order_from_a_revision) {
  auto etcd = client();
  etcd.put("/watch/a", "before"); // below `from`: not seen
  auto from = etcd.put("/watch/a", "one");
  etcd.put("/watched-not", "outside the prefix");
  auto erased = etcd.erase("/watch/a");
  BOOST_TEST(erased);

  std::atomic<bool> stop{false};
  std::mutex mutex;
  std::vector<etcd_event> seen;
  std::vector<std::int64_t> revisions;
  std::exception_ptr failure;
  std::thread watcher{[&] {
    try {
      etcd_client own{{shared_etcd().endpoint()}, 200ms}; // short: `stop` is looked at every 200 ms
      own.watch_prefix("/watch/", from, stop, [&](const std::vector<etcd_event>& batch, std::int64_t revision) {
        std::lock_guard lock{mutex};
        seen.insert(seen.end(), batch.begin(), batch.end());
        revisions.push_back(revision);
        return true;
      });
    } catch (...) {
      failure = std::current_exception();
    }
  }};
  auto count = [&] {
    std::lock_guard lock{mutex};
    return seen.size();
  };
  auto wait_for = [&](std::size_t n) {
    for (auto deadline = steady::now() + 10s; count() < n && steady::now() < deadline;)
      std::this_thread::sleep_for(5ms);
    return count() >= n;
  };
  BOOST_TEST(wait_for(2));
  auto live = etcd.put("/watch/b", "live"); // while the watch runs
  BOOST_TEST(wait_for(3));
  auto stopped_at = steady::now();
  stop = true;
  watcher.join();
  BOOST_TEST(ms_since(stopped_at) < 1000);
  BOOST_TEST(!failure);

  std::lock_guard lock{mutex};
  BOOST_TEST_REQUIRE(seen.size() == 3u);
  BOOST_TEST((seen[0].kind == etcd_event_kind::put));
  BOOST_TEST(seen[0].kv.key == "/watch/a");
  BOOST_TEST(seen[0].kv.value == "one");
  BOOST_TEST(seen[0].kv.mod_revision == from);
  BOOST_TEST((seen[1].kind == etcd_event_kind::erase));
  BOOST_TEST(seen[1].kv.key == "/watch/a");
  BOOST_TEST(seen[1].kv.mod_revision > from);
  BOOST_TEST((seen[2].kind == etcd_event_kind::put));
  BOOST_TEST(seen[2].kv.key == "/watch/b");
  BOOST_TEST(seen[2].kv.mod_revision == live);
  BOOST_TEST(revisions.back() >= live);
}

BOOST_AUTO_TEST_CASE(watch_prefix_ends_when_on_events_says_so) {
  auto etcd = client();
  auto from = etcd.put("/until/a", "x");
  std::atomic<bool> stop{false};
  int batches = 0;
  etcd.watch_prefix("/until/", from, stop, [&](const std::vector<etcd_event>& batch, std::int64_t) {
    ++batches;
    BOOST_TEST(batch.at(0).kv.key == "/until/a");
    return false;
  });
  BOOST_TEST(batches == 1);
}

BOOST_AUTO_TEST_CASE(a_watch_from_a_compacted_revision_fails_as_compacted) {
  auto etcd = client();
  auto old = etcd.put("/compacted/a", "1");
  auto now = etcd.put("/compacted/a", "2");
  // The client has no compaction call (svcd never compacts); etcd's own CLI does it.
  auto command = "/usr/bin/etcdctl --endpoints=http://" + shared_etcd().endpoint() + " compact " +
                 std::to_string(now) + " >/dev/null 2>&1";
  BOOST_TEST_REQUIRE(std::system(command.c_str()) == 0);
  std::atomic<bool> stop{false};
  BOOST_TEST(failure_of([&] {
               etcd.watch_prefix("/compacted/", old, stop, [](const std::vector<etcd_event>&, std::int64_t) { return true; });
             }) == kind::compacted);
}

BOOST_AUTO_TEST_CASE(a_watch_fails_as_unreachable_when_etcd_dies) {
  svc::test::etcd_server own; // killed below: not the shared one
  etcd_client etcd{{own.endpoint()}, client_timeout};
  std::atomic<bool> stop{false};
  std::atomic<bool> seen{false};
  std::optional<kind> failure;
  std::thread watcher{[&] { // no Boost.Test macro here: they are for the main thread
    try {
      etcd.watch_prefix("/dies/", 0, stop, [&](const std::vector<etcd_event>&, std::int64_t) {
        seen = true;
        return true;
      });
    } catch (const etcd_error& e) {
      failure = e.which();
    }
  }};
  // Puts until one shows in the watch: then the stream is surely open.
  for (auto deadline = steady::now() + 10s; !seen && steady::now() < deadline;) {
    etcd.put("/dies/a", "x");
    std::this_thread::sleep_for(10ms);
  }
  BOOST_TEST(seen.load());
  auto killed_at = steady::now();
  own.kill();
  watcher.join();
  BOOST_TEST(ms_since(killed_at) < 1000);
  BOOST_TEST((failure == kind::unreachable));
  BOOST_TEST(failure_of([&] { etcd.get("/dies/a"); }) == kind::unreachable);
}

BOOST_AUTO_TEST_CASE(an_unreachable_endpoint_fails_within_the_timeout) {
  etcd_client etcd{{dead_endpoint()}, 1000ms};
  auto start = steady::now();
  BOOST_TEST(failure_of([&] { etcd.get("/x"); }) == kind::unreachable);
  BOOST_TEST(ms_since(start) < 1000);
}

BOOST_AUTO_TEST_CASE(a_dead_first_endpoint_fails_over_to_the_second) {
  etcd_client etcd{{dead_endpoint(), shared_etcd().endpoint()}, client_timeout};
  etcd.put("/failover/a", "b");
  BOOST_TEST(etcd.get("/failover/a").kvs.at(0).value == "b");
  BOOST_TEST(etcd.grant_lease(5s) != 0);
}

BOOST_AUTO_TEST_CASE(a_silent_server_times_out_at_the_deadline) {
  canned_server silent{""};
  etcd_client etcd{{silent.endpoint()}, 300ms};
  auto start = steady::now();
  BOOST_TEST(failure_of([&] { etcd.get("/x"); }) == kind::timeout);
  auto took = ms_since(start);
  BOOST_TEST(took >= 300);
  BOOST_TEST(took < 1500);
}

BOOST_AUTO_TEST_CASE(answers_etcd_does_not_send_are_rejected) {
  for (std::string reply : {
           std::string{"this is not HTTP\r\n\r\n"},
           std::string{"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"},
           std::string{"HTTP/1.1 200 OK\r\nContent-Length: 27\r\n\r\n{\"header\":{},\"kvs\":[\"x\"]}  "},
           std::string{"HTTP/1.1 200 OK\r\nContent-Length: 40\r\n\r\n{\"header\":{\"revision\":\"12x\"},\"kvs\":[]}  "},
           std::string{"HTTP/1.1 200 OK\r\nContent-Length: 104857600\r\n\r\n{"}, // over the 64 MiB range limit
           std::string{"HTTP/1.1 500 Internal Server Error\r\nContent-Length: 4\r\n\r\noops"},
       }) {
    canned_server garbage{reply};
    etcd_client etcd{{garbage.endpoint()}, client_timeout};
    BOOST_TEST_CONTEXT(reply.substr(0, 40)) {
      BOOST_TEST(failure_of([&] { etcd.get_prefix("/x"); }) == kind::rejected);
    }
  }
}

BOOST_AUTO_TEST_CASE(a_garbage_watch_stream_is_rejected) {
  // Two chunks cut inside a message that then breaks the JSON grammar.
  canned_server garbage{"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                        "10\r\n{\"result\":{\"hea\r\n6\r\nder\":}\r\n0\r\n\r\n"};
  etcd_client etcd{{garbage.endpoint()}, client_timeout};
  std::atomic<bool> stop{false};
  BOOST_TEST(failure_of([&] {
               etcd.watch_prefix("/x", 0, stop, [](const std::vector<etcd_event>&, std::int64_t) { return true; });
             }) == kind::rejected);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(secured_etcd_suite, *boost::unit_test::timeout(60))

BOOST_AUTO_TEST_CASE(a_client_with_its_certificate_and_login_reads_writes_and_watches) {
  auto etcd = secured_client();
  auto from = etcd.put("/svc/secured/a", "one");
  BOOST_TEST(etcd.put_if("/svc/secured/a", "two", from));
  BOOST_TEST(etcd.get("/svc/secured/a").kvs.at(0).value == "two");
  auto lease = etcd.grant_lease(std::chrono::seconds{5});
  etcd.put("/svc/secured/leased", "x", lease);
  BOOST_TEST(etcd.keep_alive(lease).count() > 0);
  etcd.revoke(lease);
  BOOST_TEST(etcd.get("/svc/secured/leased").kvs.empty());
  std::atomic<bool> stop{false};
  std::vector<std::string> seen;
  etcd.watch_prefix("/svc/secured/", from, stop, [&](const std::vector<etcd_event>& batch, std::int64_t) {
    for (auto& e : batch)
      seen.push_back(e.kv.key);
    return false;
  });
  BOOST_TEST(seen.at(0) == "/svc/secured/a");
}

BOOST_AUTO_TEST_CASE(keys_outside_the_users_prefix_are_refused) {
  auto etcd = secured_client();
  BOOST_TEST(failure_of([&] { etcd.put("/elsewhere", "x"); }) == kind::rejected);
  std::atomic<bool> stop{false};
  BOOST_TEST(failure_of([&] {
               etcd.watch_prefix("/elsewhere/", 0, stop, [](const std::vector<etcd_event>&, std::int64_t) { return true; });
             }) == kind::rejected);
}

BOOST_AUTO_TEST_CASE(a_client_without_a_login_is_refused) {
  auto etcd = secured_client([](auto&, auto& user, auto& password) { user.clear(), password.clear(); });
  BOOST_TEST(failure_of([&] { etcd.get("/svc/secured/a"); }) == kind::rejected);
}

BOOST_AUTO_TEST_CASE(a_wrong_password_is_refused_by_a_message_that_names_the_user_only) {
  auto etcd = secured_client([](auto&, auto&, auto& password) { password = "not-the-password"; });
  try {
    etcd.get("/svc/secured/a");
    BOOST_FAIL("a wrong password was taken");
  } catch (const etcd_error& e) {
    std::string message = e.what();
    BOOST_TEST(e.which() == kind::rejected);
    BOOST_TEST(message.find("login as svc") != std::string::npos, message);
    BOOST_TEST(message.find("not-the-password") == std::string::npos, message);
  }
}

BOOST_AUTO_TEST_CASE(a_client_without_a_certificate_or_trust_in_etcds_ca_fails_the_handshake) {
  auto no_cert = secured_client([](auto& tls, auto&, auto&) { tls.cert.clear(), tls.key.clear(); });
  BOOST_TEST(failure_of([&] { no_cert.get("/svc/secured/a"); }) == kind::unreachable);
  // A CA of its own: etcd's certificate is not one it trusts.
  svc::test::etcd_server other{svc::test::etcd_mode::secured};
  auto foreign_ca = secured_client([&](auto& tls, auto&, auto&) { tls.ca = other.credentials().ca; });
  BOOST_TEST(failure_of([&] { foreign_ca.get("/svc/secured/a"); }) == kind::unreachable);
  etcd_client plain{{secured_etcd().endpoint()}, client_timeout};
  BOOST_TEST(failure_of([&] { plain.get("/svc/secured/a"); }) != kind::timeout);
}

BOOST_AUTO_TEST_CASE(a_token_etcd_forgot_is_replaced_by_a_new_login) {
  auto c = secured_etcd().credentials();
  svc::clients::etcd_security security{{c.ca, c.cert, c.key}, c.user, c.password};
  etcd_client etcd{{secured_etcd().endpoint()}, client_timeout, security}; // shares the token with `security`
  auto from = etcd.put("/svc/relogin/a", "before");
  auto first = security.token();
  secured_etcd().forget_tokens(); // as an expiry or an etcd restart would
  BOOST_TEST(etcd.get("/svc/relogin/a").kvs.at(0).value == "before");
  auto second = security.token();
  BOOST_TEST((!first.empty() && second != first));
  secured_etcd().forget_tokens();
  std::atomic<bool> stop{false};
  int batches = 0;
  etcd.watch_prefix("/svc/relogin/", from, stop, [&](const std::vector<etcd_event>&, std::int64_t) {
    ++batches;
    return false;
  });
  BOOST_TEST(batches == 1);
  BOOST_TEST(security.token() != second);
}

BOOST_AUTO_TEST_CASE(settings_that_make_no_whole_are_refused_at_construction) {
  using svc::clients::etcd_security;
  auto c = secured_etcd().credentials();
  BOOST_CHECK_THROW((etcd_security{{{}, {}, {}}, "svc", "pw"}), std::runtime_error); // a password in clear
  BOOST_CHECK_THROW((etcd_security{{c.ca, c.cert, {}}, {}, {}}), std::runtime_error);
  BOOST_CHECK_THROW((etcd_security{{c.ca, c.key, c.key}, {}, {}}), std::runtime_error); // a key is no certificate
  BOOST_CHECK_THROW((etcd_security{{"/nonexistent/ca.pem", {}, {}}, {}, {}}), std::runtime_error);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
