// Faults of neighbours, the SMTP relay (issue 12, item 8): a relay that never
// greets, one that trickles an endless greeting (only a deadline for the
// whole conversation ends it) and one that takes the message and never
// confirms it. An endpoint's auto-disable mails its team's owner through the
// stalling relay; meanwhile the team hears of the disable by webhook within
// the delivery bound, healthy endpoints of two teams get their deliveries and
// API reads keep the read bound. The failed attempt is logged with its step
// and deadline, svcd closes the stalled connection, and the mail goes out
// once the relay takes mail again.
#include <boost/test/unit_test.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "support/json_util.hpp"
#include "support/neighbour_fixture.hpp"
#include "support/process.hpp"
#include "support/smtp_relay.hpp"
#include "support/wait.hpp"
#include "tests/support/fixture_with.hpp"

BOOST_AUTO_TEST_SUITE(e2e_neighbour_mail)

using namespace svc::e2e;
using namespace std::chrono_literals;
using ms = std::chrono::milliseconds;

namespace {

// Started before svcd, which needs its address.
struct with_relay {
  explicit with_relay(relay_behaviour behaviour) : relay(behaviour) {}
  smtp_relay relay;
};

// One failed delivery disables an endpoint (and mails the owner); the
// mailer's first retry comes a second after a failed attempt.
std::vector<std::string> mail_args(const std::string& relay) {
  return {"--smtp",           relay, "--smtp-timeout", neighbour_timeout_option, "--disable-failures", "1",
          "--retry-schedule", "1h,1h,1h,1h"};
}

// The first line of `text` holding every one of `parts`; empty if none does.
std::string line_with(const std::string& text, const std::vector<std::string>& parts) {
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    bool all = true;
    for (auto& p : parts)
      all = all && line.find(p) != std::string::npos;
    if (all)
      return line;
  }
  return {};
}

struct mail_neighbour : with_relay, neighbour_fixture {
  explicit mail_neighbour(relay_behaviour behaviour)
      : with_relay(behaviour), neighbour_fixture(mail_args(relay.address())) {}

  // Disables a new endpoint of team a whose receiver is gone; checks that
  // team a's healthy endpoint hears of it within the delivery bound (the
  // owner's mail is another matter). Returns its id.
  std::string disable_an_endpoint() {
    auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/gone";
    auto id = json_str(create_endpoint_ok(c, a.keys.write.key, url), "id");
    auto fired = std::chrono::system_clock::now();
    test_fire_ok(c, a.keys.write.key, id);
    auto notice = wait_for_receipt(
      *hooks, [&](const receipt& r) { return r.type == "webhook.endpoint_disabled" && json_str(r.envelope, "data.id") == id; },
      2 * delivery_bound);
    BOOST_TEST_REQUIRE(notice.has_value(), "no webhook.endpoint_disabled for " << id);
    auto took = std::chrono::duration_cast<ms>(notice->request.received_at - fired);
    BOOST_TEST_MESSAGE("the disable reached team a's endpoint " << took.count() << " ms after the fire");
    BOOST_TEST(notice->request.target == a.path);
    BOOST_TEST(took.count() < delivery_bound.count());
    return id;
  }

  // The log line of the mailer's failed first attempt, once written.
  std::string failed_attempt_line() {
    return line_with(read_file(svcd.log_path()), {"mailer", "failed (attempt 1)"});
  }

  // The mailer's state as /admin/actors shows it.
  std::string mailer_state() {
    return json_str(admin().get("/admin/actors?kind=mailer", admin_auth()).json(), "data.0.state");
  }

  // The owner's mail about endpoint `id` stalls at `step`, is logged as a
  // failed attempt while everything else keeps its bounds, and goes out once
  // the relay takes mail again; `stalled_copies` of it reached the relay
  // unconfirmed meanwhile.
  void mail_stalls_at(const std::string& step, std::size_t stalled_copies) {
    auto reads = probe_reads();
    auto owner = json_str(c.get("/v1/team", with_key(a.keys.read.key)).json(), "owner_email");
    auto id = disable_an_endpoint();
    BOOST_REQUIRE_MESSAGE(relay.wait_for_connections(1, 5s), "the mailer never reached the relay");

    std::string failed;
    auto give_up = std::chrono::steady_clock::now() + neighbour_timeout + 5s;
    check_healthy_deliveries([&] {
      failed = failed_attempt_line();
      return failed.empty() && std::chrono::steady_clock::now() < give_up;
    });
    BOOST_TEST_REQUIRE(!failed.empty(), "no failed attempt in the log:\n" << svcd.log_tail());
    BOOST_TEST_MESSAGE("logged: " << failed);
    BOOST_TEST(failed.find("'" + owner + "'") != std::string::npos, failed);
    BOOST_TEST(failed.find(id) != std::string::npos, failed);
    BOOST_TEST(failed.find("retrying in 1000ms: smtp " + step + ": timed out after " +
                           std::to_string(neighbour_timeout.count()) + "ms") != std::string::npos,
               failed);
    BOOST_TEST(wait_until([&] { return relay.closed_while_stalled() >= 1; }, 2s), "svcd let go of the relay");
    BOOST_TEST(relay.messages().size() == stalled_copies);

    relay.set_behaviour(relay_behaviour::takes_mail);
    BOOST_TEST_REQUIRE(relay.wait_for_messages(stalled_copies + 1, 5s), "the retry did not go out");
    auto mail = relay.messages().back();
    BOOST_TEST(mail.find("To: " + owner) != std::string::npos, mail);
    BOOST_TEST(mail.find(id) != std::string::npos, mail);
    std::string state;
    BOOST_TEST(wait_until(
                 [&] {
                   state = mailer_state();
                   return state.find("sent=1 ") != std::string::npos;
                 },
                 5s),
               "mailer: " << state);
    check_reads(reads->stop());
  }
};

using silent_relay = svc::test::fixture_with<mail_neighbour, relay_behaviour::never_greets>;
using trickling_relay = svc::test::fixture_with<mail_neighbour, relay_behaviour::endless_greeting>;
using unconfirming_relay = svc::test::fixture_with<mail_neighbour, relay_behaviour::stalls_after_data>;

} // namespace

BOOST_FIXTURE_TEST_CASE(a_relay_that_never_greets_delays_only_the_mail, silent_relay) { mail_stalls_at("greeting", 0); }

BOOST_FIXTURE_TEST_CASE(a_relay_with_an_endless_greeting_is_cut_off_at_the_deadline, trickling_relay) {
  mail_stalls_at("greeting", 0);
}

// The relay had the message but never said so: it is sent again (mail is
// at least once, like webhooks).
BOOST_FIXTURE_TEST_CASE(a_relay_that_never_confirms_a_message_gets_it_again, unconfirming_relay) {
  mail_stalls_at("message", 1);
}

BOOST_AUTO_TEST_SUITE_END()
