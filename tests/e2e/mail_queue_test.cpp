// Mail is a durable queue (issue 12, durable promises): the owner's mail
// about an auto-disabled endpoint is committed with the disable, waits in
// LMDB while the SMTP relay refuses it, survives a `kill -9`, and goes out
// after the restart once the relay takes mail, not to the outbox.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/smtp_relay.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_mail_queue)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Started before svcd, which needs its address.
struct with_relay {
  smtp_relay relay{relay_behaviour::never_greets};
};

// One failed delivery disables an endpoint; a relay attempt gives up after 500 ms.
struct mail_fixture : with_relay, webhook_fixture {
  mail_fixture()
      : webhook_fixture({"--smtp", relay.address(), "--smtp-timeout", "500ms", "--disable-failures", "1",
                         "--retry-schedule", "1h,1h,1h,1h"}) {}

  std::string mailer_state() {
    return json_str(admin().get("/admin/actors?kind=mailer", admin_auth()).json(), "data.0.state");
  }
};

std::size_t outbox_files(const std::string& data_dir) {
  std::error_code ec;
  std::size_t n = 0;
  for (auto it = std::filesystem::directory_iterator(data_dir + "/outbox", ec);
       !ec && it != std::filesystem::directory_iterator{}; it.increment(ec))
    ++n;
  return n;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(mail_waiting_for_the_relay_survives_kill_9, mail_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  auto owner = json_str(c.get("/v1/team", with_key(t.read.key)).json(), "owner_email");
  auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/gone";
  auto id = json_str(create_endpoint_ok(c, t.write.key, url), "id");
  test_fire_ok(c, t.write.key, id);

  // The relay never greets: the first attempt fails and the mail waits for its retry.
  BOOST_REQUIRE_MESSAGE(wait_until(
                          [&] { return read_file(svcd.log_path()).find("failed (attempt 1)") != std::string::npos; },
                          10s),
                        "no failed mail attempt:\n" << svcd.log_tail());
  BOOST_TEST(json_bool(get_endpoint(c, t.read.key, id), "is_active") == false);
  BOOST_TEST(relay.messages().empty());

  svcd.kill9();
  relay.set_behaviour(relay_behaviour::takes_mail);
  svcd.start();
  BOOST_REQUIRE_MESSAGE(relay.wait_for_messages(1, 15s), "the queued mail was lost:\n" << svcd.log_tail());
  auto mail = relay.messages().front();
  BOOST_TEST(mail.find("To: " + owner) != std::string::npos, mail);
  BOOST_TEST(mail.find(id) != std::string::npos, mail);
  BOOST_TEST(read_file(svcd.log_path()).find("1 queued mail to send") != std::string::npos, svcd.log_tail());
  std::string state;
  BOOST_TEST(wait_until(
               [&] {
                 state = mailer_state();
                 return state == "sent=1 fallback=0 failed=0 retrying=0";
               },
               5s),
             "mailer: " << state);
  BOOST_TEST(outbox_files(svcd.data_dir()) == 0u, "sent through the relay, not the outbox");
  // Sent once: a later restart finds nothing left to send.
  svcd.restart();
  std::this_thread::sleep_for(300ms);
  BOOST_TEST(relay.messages().size() == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
