// Mail through a real relay (issue 13, item 7): libcurl's SMTP with STARTTLS
// and AUTH, or implicit TLS (smtps://), trusting the relay's CA from
// --smtp-ca-file. A wrong password keeps the mail queued and retried; a relay
// that offers no STARTTLS is refused before it hears MAIL; the password
// never reaches svcd's log, and settings that would leak it stop startup.
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/smtp_relay.hpp"
#include "support/svcd_process.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_mail_tls)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

const std::string relay_user = "ops@svc.test";
const std::string relay_password = "pw-Relay-7c1e9a";

// A file holding `text`, of `mode`, in a directory of its own that goes with it.
struct secret_file {
  explicit secret_file(const std::string& text, mode_t mode = 0600)
      : dir(make_temp_dir("svc-e2e-smtp-")), path(dir + "/smtp.password") {
    write(text);
    ::chmod(path.c_str(), mode);
  }
  ~secret_file() {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }
  void write(const std::string& text) const { std::ofstream{path, std::ios::trunc} << text << "\n"; }
  std::string dir;
  std::string path;
};

relay_security demanding(relay_tls tls) {
  relay_security s;
  s.tls = tls;
  s.identity = webhook_test_pki().server;
  s.user = relay_user;
  s.password = relay_password;
  return s;
}

// `scheme://ops%40svc.test@127.0.0.1:PORT`, or without the user.
std::string relay_url(const std::string& scheme, const smtp_relay& relay, bool with_user = true) {
  return scheme + "://" + (with_user ? "ops%40svc.test@" : "") + relay.address();
}

// One failed delivery disables an endpoint and mails the owner; the
// mailer's first retry comes a second after a failed attempt.
std::vector<std::string> svcd_args(const std::string& smtp, const std::string& password_path) {
  std::vector<std::string> args{"--smtp", smtp, "--smtp-ca-file", webhook_ca_file(), "--smtp-timeout", "5s",
                                "--disable-failures", "1", "--retry-schedule", "1h,1h,1h,1h"};
  if (!password_path.empty())
    args.insert(args.end(), {"--smtp-password-file", password_path});
  return args;
}

// Disables a new endpoint whose receiver is gone, which mails the owner; its id.
std::string disable_an_endpoint(webhook_fixture& f) {
  auto t = f.create_team_with_keys();
  auto c = f.api();
  auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/gone";
  auto id = json_str(create_endpoint_ok(c, t.write.key, url), "id");
  test_fire_ok(c, t.write.key, id);
  return id;
}

bool log_has(const svcd_process& svcd, const std::string& text) {
  return read_file(svcd.log_path()).find(text) != std::string::npos;
}

void delivered_once(const smtp_relay& relay, const std::string& endpoint_id, const svcd_process& svcd) {
  BOOST_REQUIRE_MESSAGE(relay.wait_for_messages(1, 15s), "no mail reached the relay:\n" << svcd.log_tail());
  BOOST_TEST(relay.messages().front().find(endpoint_id) != std::string::npos, relay.messages().front());
  BOOST_TEST(relay.tls_sessions() >= 1u);
  BOOST_TEST(relay.logins() == 1u);
  BOOST_TEST(relay.auth_in_clear() == 0u);
  BOOST_TEST(!log_has(svcd, relay_password), "the password is in svcd's log");
}

} // namespace

BOOST_AUTO_TEST_CASE(mail_goes_out_over_starttls_with_auth) {
  smtp_relay relay{relay_behaviour::takes_mail, demanding(relay_tls::starttls)};
  secret_file password{relay_password};
  webhook_fixture f{svcd_args(relay_url("smtp", relay), password.path)};
  auto id = disable_an_endpoint(f);
  delivered_once(relay, id, f.svcd);
  BOOST_TEST(relay.refused_logins() == 0u);
}

BOOST_AUTO_TEST_CASE(mail_goes_out_over_implicit_tls_with_smtps_and_auth_login) {
  auto security = demanding(relay_tls::implicit);
  security.mechanisms = "LOGIN";
  smtp_relay relay{relay_behaviour::takes_mail, security};
  secret_file password{relay_password};
  webhook_fixture f{svcd_args(relay_url("smtps", relay), password.path)};
  auto id = disable_an_endpoint(f);
  delivered_once(relay, id, f.svcd);
}

BOOST_AUTO_TEST_CASE(a_wrong_password_keeps_the_mail_queued_and_retried) {
  smtp_relay relay{relay_behaviour::takes_mail, demanding(relay_tls::starttls)};
  const std::string wrong = "pw-Wrong-51d0b2";
  secret_file password{wrong};
  webhook_fixture f{svcd_args(relay_url("smtp", relay), password.path)};
  auto id = disable_an_endpoint(f);

  BOOST_REQUIRE_MESSAGE(wait_until([&] { return log_has(f.svcd, "failed (attempt 2)"); }, 15s),
                        "the refused mail was not retried:\n" << f.svcd.log_tail());
  BOOST_TEST(log_has(f.svcd, "smtp AUTH: 535 5.7.8 Authentication credentials invalid"), f.svcd.log_tail());
  BOOST_TEST(relay.refused_logins() >= 2u);
  BOOST_TEST(relay.messages().empty());
  auto state = json_str(f.admin().get("/admin/actors?kind=mailer", f.admin_auth()).json(), "data.0.state");
  BOOST_TEST(state.find("retrying=1") != std::string::npos, state);

  // Fixed and restarted: the queued mail goes out.
  BOOST_TEST(f.svcd.stop() == 0);
  password.write(relay_password);
  f.svcd.start();
  delivered_once(relay, id, f.svcd);
  BOOST_TEST(!log_has(f.svcd, wrong), "the wrong password is in svcd's log");
}

BOOST_AUTO_TEST_CASE(a_relay_without_starttls_is_refused_before_mail) {
  smtp_relay relay{relay_behaviour::takes_mail}; // plain, offers no STARTTLS
  webhook_fixture f{svcd_args(relay_url("smtp", relay, false), "")};
  disable_an_endpoint(f);
  BOOST_REQUIRE_MESSAGE(wait_until([&] { return log_has(f.svcd, "failed (attempt 1)"); }, 15s),
                        "no failed attempt:\n" << f.svcd.log_tail());
  BOOST_TEST(log_has(f.svcd, "smtp EHLO: STARTTLS not"), f.svcd.log_tail());
  BOOST_TEST(relay.messages().empty());
}

BOOST_AUTO_TEST_CASE(settings_that_would_expose_the_password_stop_startup) {
  smtp_relay relay{relay_behaviour::takes_mail, demanding(relay_tls::starttls)};
  secret_file readable{relay_password, 0644};
  secret_file fine{relay_password};
  struct bad {
    std::vector<std::string> args;
    std::string says;
  };
  const std::vector<bad> cases{
    {svcd_args(relay_url("smtp", relay), readable.path), "readable or writable by others"},
    {svcd_args("smtp://ops:" + relay_password + "@" + relay.address(), ""), "put it in --smtp-password-file"},
    {svcd_args(relay_url("smtp", relay), ""), "--smtp-password-file is not set"},
    {svcd_args(relay_url("smtp", relay, false), fine.path), "needs a user in the --smtp URL"},
  };
  for (auto& c : cases) {
    try {
      svcd_process svcd{c.args};
      BOOST_ERROR("svcd started with " << c.says);
    } catch (const std::runtime_error& e) {
      std::string why = e.what();
      BOOST_TEST(why.find("exited during start with status 1") != std::string::npos, why);
      BOOST_TEST(why.find(c.says) != std::string::npos, why);
      BOOST_TEST(why.find(relay_password) == std::string::npos, "the password is in svcd's log");
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
