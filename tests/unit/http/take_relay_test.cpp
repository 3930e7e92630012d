#include "http/take_relay.hpp"
#include "tests/support/spawn_behavior.hpp"

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include <caf/actor_system.hpp>
#include <caf/actor_system_config.hpp>

BOOST_AUTO_TEST_SUITE(http_take_relay)

// The relay between the asio threads and the bucket actors, against buckets
// of the test's own: a verdict, a bucket that never answers and a bucket that
// dies with the take in its mailbox each resume the right continuation, on
// the asio thread.

namespace {

using namespace svc;
using namespace std::chrono_literals;

// A bucket that answers every take with `allowed`, named after its key.
caf::behavior answering_bucket(bool allowed) {
  return {
    [=](actors::take_atom, schema::bucket_class) {
      return actors::rate_decision{allowed, 10, allowed ? 9 : 0, 0, allowed ? 0 : 3, "team"};
    },
    [=](actors::take_atom, const std::string& address) {
      return actors::rate_decision{allowed, 5, 4, 0, 0, address};
    },
  };
}

// A bucket that leaves every take in its mailbox, unanswered.
caf::behavior holding_bucket() {
  return {
    [](actors::take_atom, schema::bucket_class) -> caf::result<actors::rate_decision> { return caf::skip; },
  };
}

struct relay_fixture {
  caf::actor_system_config cfg;
  caf::actor_system sys{cfg};
  boost::asio::io_context io;
  std::optional<actors::rate_decision> verdict;
  std::optional<caf::error> error;
  std::thread::id ran_on;

  http::take_relay::on_verdict keep_verdict() {
    return [this](const actors::rate_decision& d) {
      verdict = d;
      ran_on = std::this_thread::get_id();
    };
  }
  http::take_relay::on_error keep_error() {
    return [this](const caf::error& e) {
      error = e;
      ran_on = std::this_thread::get_id();
    };
  }
  // Runs the asio handlers until a continuation ran, for at most 10 s.
  bool resumed() {
    auto deadline = std::chrono::steady_clock::now() + 10s;
    while (!verdict && !error && std::chrono::steady_clock::now() < deadline) {
      io.restart();
      io.run_for(20ms);
    }
    return verdict || error;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(take_relay, relay_fixture)

BOOST_AUTO_TEST_CASE(a_team_buckets_verdict_resumes_the_verdict_on_the_asio_thread) {
  http::take_relay relay{sys, io, caf::duration{5s}};
  auto bucket = caf::actor_cast<actors::bucket_actor>(sys.spawn(answering_bucket, false));
  relay.take(bucket, schema::bucket_class::images_post, keep_verdict(), keep_error());
  BOOST_REQUIRE(resumed());
  BOOST_REQUIRE(verdict.has_value());
  BOOST_TEST(!error.has_value());
  BOOST_TEST(!verdict->allowed);
  BOOST_TEST(verdict->retry_after == 3);
  BOOST_TEST((ran_on == std::this_thread::get_id()));
}

BOOST_AUTO_TEST_CASE(an_address_take_goes_to_the_anonymous_buckets) {
  http::take_relay relay{sys, io, caf::duration{5s}};
  auto buckets = caf::actor_cast<actors::anonymous_bucket_actor>(sys.spawn(answering_bucket, true));
  relay.take(buckets, "192.0.2.7", keep_verdict(), keep_error());
  BOOST_REQUIRE(resumed());
  BOOST_REQUIRE(verdict.has_value());
  BOOST_TEST(verdict->allowed);
  BOOST_TEST(verdict->bucket == "192.0.2.7");
}

BOOST_AUTO_TEST_CASE(a_bucket_that_does_not_answer_in_time_resumes_the_error) {
  http::take_relay relay{sys, io, caf::duration{50ms}};
  auto bucket = caf::actor_cast<actors::bucket_actor>(svc::test::spawn_behavior(sys, holding_bucket()));
  relay.take(bucket, schema::bucket_class::reads, keep_verdict(), keep_error());
  BOOST_REQUIRE(resumed());
  BOOST_TEST(!verdict.has_value());
  BOOST_REQUIRE(error.has_value());
  BOOST_TEST((*error == caf::sec::request_timeout), caf::to_string(*error));
  BOOST_TEST((ran_on == std::this_thread::get_id()));
  caf::anon_send_exit(bucket, caf::exit_reason::kill);
}

BOOST_AUTO_TEST_CASE(a_bucket_that_dies_with_the_take_unanswered_resumes_the_error) {
  http::take_relay relay{sys, io, caf::duration{10s}};
  auto bucket = caf::actor_cast<actors::bucket_actor>(svc::test::spawn_behavior(sys, holding_bucket()));
  relay.take(bucket, schema::bucket_class::reads, keep_verdict(), keep_error());
  caf::anon_send_exit(bucket, caf::exit_reason::kill);
  BOOST_REQUIRE(resumed());
  BOOST_TEST(!verdict.has_value());
  BOOST_REQUIRE(error.has_value());
  BOOST_TEST((*error == caf::sec::request_receiver_down), caf::to_string(*error));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
