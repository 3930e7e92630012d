// Faults of neighbours, webhook receivers (issue 12, item 8): a receiver
// that accepts and says nothing (not even TLS), one that reads the request
// and never answers, one that answers 200 with a 100 MiB body,
// one that resets the connection in the TLS handshake and one that resets it
// halfway through its answer. While each misbehaves, the healthy endpoints of
// its own team and of another team get their deliveries within the delivery
// bound and API reads keep the read bound; each bad attempt gets its delivery
// row with the contract's outcome, and svcd lets go of the connection.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <boost/json/serialize.hpp>

#include "support/faulty_receiver.hpp"
#include "support/json_util.hpp"
#include "support/neighbour_fixture.hpp"
#include "support/wait.hpp"
#include "tests/support/fixture_with.hpp"

BOOST_AUTO_TEST_SUITE(e2e_neighbour_webhooks)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// Attempts fired at a bad endpoint that fails them quickly.
constexpr std::size_t bad_attempts = 24;
// Attempts a silent receiver holds at once (fewer than an endpoint's
// parallel deliveries, so none waits for another to time out).
constexpr std::size_t held_attempts = 8;
// Between two of them, when they are spread out: the neighbour then
// misbehaves for about a second, all through the healthy checks.
constexpr std::chrono::milliseconds bad_pace{40};

// Test fires at an endpoint from a thread of its own, `n` of them, one
// every `pace`.
class fires_in_background {
public:
  fires_in_background(std::string api_url, std::string key, std::string endpoint, std::size_t n,
                      std::chrono::milliseconds pace)
      : thread_([=] {
          http_client c(api_url);
          for (std::size_t i = 0; i < n; ++i) {
            if (test_fire(c, key, endpoint).status == 202)
              ++fired_;
            std::this_thread::sleep_for(pace);
          }
          done_ = true;
        }) {}
  ~fires_in_background() { join(); }

  bool done() const { return done_; }
  /// Waits for the last fire; how many were enqueued.
  std::size_t join() {
    if (thread_.joinable())
      thread_.join();
    return fired_;
  }

private:
  std::atomic<std::size_t> fired_{0};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

// A bad receiver as an endpoint of team a. Failed attempts are retried only
// after an hour, so each event has exactly one row here, and the endpoint is
// not disabled, so each attempt is made.
struct receiver_neighbour : neighbour_fixture {
  explicit receiver_neighbour(receiver_fault fault)
      : neighbour_fixture({"--delivery-timeout", neighbour_timeout_option, "--retry-schedule", "1h,1h,1h,1h",
                           "--disable-failures", "1000"}),
        bad(fault) {
    bad_endpoint = json_str(create_endpoint_ok(c, a.keys.write.key, bad.url()), "id");
  }

  faulty_receiver bad;
  std::string bad_endpoint;

  // Reads of the bad endpoint itself, besides the fixture's.
  std::unique_ptr<latency_probe> probe() const {
    return probe_reads({"/v1/webhook_endpoints/" + bad_endpoint,
                        "/v1/webhook_endpoints/" + bad_endpoint + "/deliveries?limit=5"});
  }

  // Fires `n` attempts at once.
  void fire_at_bad(std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      test_fire_ok(c, a.keys.write.key, bad_endpoint);
  }

  // Spreads the bad attempts over the healthy checks, which go on until the
  // last was fired.
  void fire_at_bad_during_healthy_checks() {
    fires_in_background fires(svcd.api_url(), a.keys.write.key, bad_endpoint, bad_attempts, bad_pace);
    check_healthy_deliveries([&] { return !fires.done(); });
    BOOST_TEST_REQUIRE(fires.join() == bad_attempts);
  }

  // The bad endpoint's rows once each of `n` attempts has one.
  std::vector<json::value> bad_rows(std::size_t n = bad_attempts) {
    auto rows = wait_deliveries(
      c, a.keys.read.key, bad_endpoint, [n](auto& rows) { return rows.size() >= n; }, neighbour_timeout + 10s);
    BOOST_TEST_REQUIRE(rows.size() == n, "rows of the bad endpoint: " << rows.size());
    return rows;
  }

  // Held attempts, all at once: healthy deliveries go out while the bad
  // receiver holds every one of them; then each fails as a timeout in
  // `phase` at the delivery deadline, and svcd closes its connection.
  void attempts_are_held_until_the_deadline(const std::string& phase) {
    auto reads = probe();
    auto fired = std::chrono::steady_clock::now();
    fire_at_bad(held_attempts);
    BOOST_REQUIRE_MESSAGE(bad.wait_for_accepted(held_attempts, 10s), "connections: " << bad.accepted());
    BOOST_REQUIRE(wait_until([&] { return bad.requests() == (phase == "read" ? held_attempts : 0u); }, 5s));

    // For half the deadline, while nothing can have timed out.
    check_healthy_deliveries([&] { return std::chrono::steady_clock::now() - fired < neighbour_timeout / 2; });
    BOOST_TEST_REQUIRE(bad.closed_by_svcd().empty(), "the healthy deliveries went out while every bad attempt was held");
    BOOST_TEST(all_deliveries(c, a.keys.read.key, bad_endpoint).empty(), "no row before the deadline");

    auto rows = bad_rows(held_attempts);
    check_failed_rows(rows, "timeout");
    for (auto& row : rows) {
      auto took = json_int(row, "duration_ms").value_or(-1);
      BOOST_TEST(took >= neighbour_timeout.count() - 50, "attempt gave up after " << took << " ms");
      BOOST_TEST(took < neighbour_timeout.count() + 2000, "attempt gave up after " << took << " ms");
      BOOST_TEST(json_str(row, "error_message").find("(" + phase + ")") != std::string::npos, json_str(row, "error_message"));
    }
    // svcd let go of every connection at its deadline: none is left open.
    BOOST_TEST(bad.wait_for_closes(held_attempts, 5s), "closed by svcd: " << bad.closed_by_svcd().size());
    for (auto held : bad.closed_by_svcd())
      BOOST_TEST(held.count() < neighbour_timeout.count() + 2000, "a connection held for " << held.count() << " ms");
    check_reads(reads->stop());
  }

  // Each row is attempt 1 of a failed delivery of `error_class`, with no
  // status (a transport error), its retry scheduled; the endpoint counts them.
  void check_failed_rows(const std::vector<json::value>& rows, const std::string& error_class) {
    for (auto& row : rows)
      BOOST_TEST_CONTEXT(json::serialize(row)) {
        BOOST_TEST(json_int(row, "attempt") == 1);
        BOOST_TEST(json_str(row, "status") == "failed");
        BOOST_TEST(json_str(row, "error_class") == error_class);
        BOOST_TEST(json_is_null(row, "response_status"), "no HTTP status for a transport error");
        BOOST_TEST(!json_str(row, "error_message").empty());
        BOOST_TEST(json_bool(row, "is_terminal") == false);
        BOOST_TEST(!json_is_null(row, "next_attempt_at"));
      }
    auto record = get_endpoint(c, a.keys.read.key, bad_endpoint);
    BOOST_TEST(json_int(record, "consecutive_failures") == static_cast<std::int64_t>(rows.size()));
    BOOST_TEST(!json_is_null(record, "last_failure_at"));
  }
};

using silent_receiver = svc::test::fixture_with<receiver_neighbour, receiver_fault::silent>;
using unanswering_receiver = svc::test::fixture_with<receiver_neighbour, receiver_fault::never_answers>;
using huge_body_receiver = svc::test::fixture_with<receiver_neighbour, receiver_fault::huge_body>;
using handshake_reset_receiver = svc::test::fixture_with<receiver_neighbour, receiver_fault::reset_in_handshake>;
using answer_reset_receiver = svc::test::fixture_with<receiver_neighbour, receiver_fault::reset_in_answer>;

} // namespace

BOOST_FIXTURE_TEST_CASE(a_receiver_that_accepts_and_says_nothing_holds_up_only_its_own_deliveries, silent_receiver) {
  attempts_are_held_until_the_deadline("TLS handshake");
}

BOOST_FIXTURE_TEST_CASE(a_receiver_that_never_answers_holds_up_only_its_own_deliveries, unanswering_receiver) {
  attempts_are_held_until_the_deadline("read");
}

BOOST_FIXTURE_TEST_CASE(a_receiver_answering_a_100_mib_body_is_read_no_further_than_64_kib, huge_body_receiver) {
  auto reads = probe();
  fire_at_bad_during_healthy_checks();
  auto rows = bad_rows();
  // The receiver acknowledged with a 200, so the delivery stands; the row
  // keeps the first KiB of the answer and says the rest was not read.
  for (auto& row : rows)
    BOOST_TEST_CONTEXT(json::serialize(row).substr(0, 600)) {
      BOOST_TEST(json_str(row, "status") == "succeeded");
      BOOST_TEST(json_int(row, "response_status") == 200);
      BOOST_TEST(json_str(row, "response_body") == std::string(1024, 'x'));
      BOOST_TEST(json_str(row, "error_message").find("64 KiB") != std::string::npos);
      BOOST_TEST(json_bool(row, "is_terminal") == true);
    }
  // svcd closed each connection instead of reading on: what the receiver
  // could write is its kernel buffers' worth, not 100 MiB.
  BOOST_TEST_REQUIRE(bad.wait_for_closes(bad_attempts, 10s), "closed by svcd: " << bad.closed_by_svcd().size());
  BOOST_TEST(bad.bodies_finished() == 0u);
  auto taken = bad.body_bytes_taken();
  BOOST_TEST_MESSAGE("body bytes the receiver got rid of over " << bad_attempts << " answers: " << taken);
  BOOST_TEST(taken < bad_attempts * (8ull << 20), "svcd took " << taken << " bytes");
  BOOST_TEST(json_int(get_endpoint(c, a.keys.read.key, bad_endpoint), "consecutive_failures") == 0);
  check_reads(reads->stop());
}

BOOST_FIXTURE_TEST_CASE(a_receiver_that_resets_in_the_tls_handshake_is_a_tls_error, handshake_reset_receiver) {
  auto reads = probe();
  fire_at_bad_during_healthy_checks();
  auto rows = bad_rows();
  check_failed_rows(rows, "tls_error");
  BOOST_TEST(bad.accepted() >= bad_attempts);
  BOOST_TEST(bad.requests() == 0u, "no request got through the handshake");
  check_reads(reads->stop());
}

BOOST_FIXTURE_TEST_CASE(a_receiver_that_resets_in_its_answer_is_a_failed_delivery, answer_reset_receiver) {
  auto reads = probe();
  fire_at_bad_during_healthy_checks();
  auto rows = bad_rows();
  // The head said 200, but the answer never arrived whole: not acknowledged.
  check_failed_rows(rows, "connect_error");
  BOOST_TEST(bad.requests() == bad_attempts);
  check_reads(reads->stop());
}

BOOST_AUTO_TEST_SUITE_END()
