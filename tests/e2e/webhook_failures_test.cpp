// Webhook deliveries that fail (spec "Webhook delivery state", "Limits >
// Webhook limits", decisions.md "Webhooks"): five attempts on the configured
// schedule then a dead letter, one error class per way of failing,
// auto-disable after 20 failures in a row (mail to the owner,
// webhook.endpoint_disabled to the team's other endpoint) and re-enabling,
// replay of what was missed, and the SSRF rule at create.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_webhook_failures)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::vector<std::chrono::milliseconds> schedule{200ms, 400ms, 600ms, 800ms};

struct short_retries : webhook_fixture {
  short_retries()
    : webhook_fixture({"--retry-schedule", "200ms,400ms,600ms,800ms", "--delivery-timeout", "500ms"}) {}
};

struct disable_after_20 : webhook_fixture {
  disable_after_20() : webhook_fixture({"--retry-schedule", "200ms,400ms,600ms,800ms", "--disable-failures", "20"}) {}
};

// Four events dead-lettered make 20 failures in a row: no auto-disable here.
struct replay_fixture : webhook_fixture {
  replay_fixture() : webhook_fixture({"--retry-schedule", "200ms,400ms,600ms,800ms", "--disable-failures", "1000"}) {}
};

struct private_addresses_refused : webhook_fixture {
  private_addresses_refused() : webhook_fixture({}, false) {}
};

reply status_reply(unsigned status, std::string body = {}) {
  reply r;
  r.status = status;
  r.body = std::move(body);
  return r;
}

// Rows of one event, oldest attempt first.
std::vector<json::value> rows_of_event(const std::vector<json::value>& rows, const std::string& event_id) {
  std::vector<json::value> out;
  for (auto it = rows.rbegin(); it != rows.rend(); ++it)
    if (json_str(*it, "event_id") == event_id)
      out.push_back(*it);
  return out;
}

bool has_dead_letter(const std::vector<json::value>& rows, const std::string& event_id) {
  for (auto& r : rows)
    if (json_str(r, "event_id") == event_id && json_bool(r, "is_dead_letter") == true)
      return true;
  return false;
}

// Contents of every file in DIR/outbox.
std::vector<std::string> outbox_mails(const std::string& data_dir) {
  std::vector<std::string> out;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(data_dir + "/outbox", ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".eml")
      out.push_back(read_file(it->path().string()));
  return out;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_failing_receiver_gets_five_attempts_then_a_dead_letter, short_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  hooks->set_reply(status_reply(500, std::string(2000, 'x')));
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto id = json_str(endpoint, "id");
  auto event_id = test_fire_ok(c, t.write.key, id);

  BOOST_REQUIRE_MESSAGE(wait_for_receipts(*hooks, 5, event_is(event_id), 15s),
                        "5 attempts within 15 s; got " << hooks->request_count());
  BOOST_TEST(!wait_for_receipts(*hooks, 6, event_is(event_id), 2s), "no sixth attempt");
  std::vector<receipt> attempts;
  for (auto& rc : receipts_of(*hooks))
    if (rc.event_id == event_id)
      attempts.push_back(rc);
  BOOST_REQUIRE_EQUAL(attempts.size(), 5u);
  for (std::size_t i = 1; i < attempts.size(); ++i) {
    auto gap = std::chrono::duration_cast<std::chrono::milliseconds>(attempts[i].request.received_at
                                                                      - attempts[i - 1].request.received_at);
    BOOST_TEST_MESSAGE("gap before attempt " << i + 1 << ": " << gap.count() << " ms");
    // 2 ms of slack for the millisecond rounding of stored due times.
    BOOST_TEST(gap.count() >= schedule[i - 1].count() - 2, "gap before attempt " << i + 1 << " is " << gap.count()
                                                                                  << " ms, schedule says "
                                                                                  << schedule[i - 1].count());
  }
  for (auto& a : attempts)
    BOOST_TEST(svc_signature_valid(a.request, json_str(endpoint, "secret")), "every attempt is signed");

  auto rows = wait_deliveries(
    c, t.read.key, id, [](auto& rows) { return rows.size() >= 5; }, 10s);
  BOOST_REQUIRE_EQUAL(rows.size(), 5u);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    auto& row = rows[i];
    BOOST_TEST_CONTEXT("row " << i << ": " << json::serialize(row)) {
      BOOST_TEST(json_int(row, "attempt") == static_cast<std::int64_t>(5 - i), "newest first");
      BOOST_TEST(json_str(row, "event_id") == event_id);
      BOOST_TEST(json_str(row, "status") == "failed");
      BOOST_TEST(json_int(row, "response_status") == 500);
      BOOST_TEST(json_str(row, "error_class") == "http_5xx");
      BOOST_TEST(json_str(row, "response_body").size() == 1024u, "the first 1 KiB of the answer");
      BOOST_TEST(json_str(row, "response_body") == std::string(1024, 'x'));
      if (i == 0) {
        BOOST_TEST(json_bool(row, "is_terminal") == true);
        BOOST_TEST(json_bool(row, "is_dead_letter") == true);
        BOOST_TEST(json_is_null(row, "next_attempt_at"));
      } else {
        BOOST_TEST(json_bool(row, "is_terminal") == false);
        BOOST_TEST(json_bool(row, "is_dead_letter") == false);
        auto next = parse_iso8601_ms(json_str(row, "next_attempt_at"));
        auto at = parse_iso8601_ms(json_str(row, "created_at"));
        BOOST_TEST(next > 0);
        // Row i (attempt 5 - i) is followed after schedule[4 - i - 1].
        BOOST_TEST(next - at >= schedule[4 - i].count() - 2, "next_attempt_at is " << next - at << " ms later");
      }
    }
  }
  auto after = get_endpoint(c, t.read.key, id);
  BOOST_TEST(json_int(after, "consecutive_failures") == 5);
  BOOST_TEST(json_bool(after, "is_active") == true, "5 failures do not disable");
  BOOST_TEST(parse_iso8601_ms(json_str(after, "last_failure_at")) > 0);
}

BOOST_FIXTURE_TEST_CASE(each_way_of_failing_has_its_error_class, short_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  hooks->set_handler([](const received_request& r) {
    if (r.target == "/500")
      return status_reply(500, "boom");
    if (r.target == "/404")
      return status_reply(404, "no such hook");
    reply slow = status_reply(200);
    slow.delay = 2s; // beyond --delivery-timeout 500ms
    return slow;
  });
  auto untrusted = make_untrusted_receiver();
  auto port = closed_local_port();
  struct failing_case {
    std::string url;
    std::string error_class;
    std::optional<std::int64_t> status;
  };
  std::vector<failing_case> cases{
    {hooks->url("/500"), "http_5xx", 500},
    {hooks->url("/404"), "http_4xx", 404},
    {hooks->url("/slow"), "timeout", std::nullopt},
    {"https://127.0.0.1:" + std::to_string(port) + "/hooks", "connect_refused", std::nullopt},
    {untrusted->url(), "tls_error", std::nullopt},
  };
  std::vector<std::pair<std::string, std::string>> fired; // endpoint, event
  for (auto& k : cases) {
    auto e = json_str(create_endpoint_ok(c, t.write.key, k.url), "id");
    fired.emplace_back(e, test_fire_ok(c, t.write.key, e));
  }
  for (std::size_t i = 0; i < cases.size(); ++i) {
    auto& [endpoint, event] = fired[i];
    BOOST_TEST_CONTEXT(cases[i].error_class << " (" << cases[i].url << ")") {
      auto rows = wait_deliveries(
        c, t.read.key, endpoint,
        [&event = event](auto& rows) { // named: a structured binding is not capturable before C++20
          return !rows_of_event(rows, event).empty();
        },
        15s);
      auto mine = rows_of_event(rows, event);
      BOOST_TEST_REQUIRE(!mine.empty(), "no delivery row for attempt 1");
      auto& first = mine.front();
      BOOST_TEST_CONTEXT(json::serialize(first)) {
        BOOST_TEST(json_int(first, "attempt") == 1);
        BOOST_TEST(json_str(first, "status") == "failed");
        BOOST_TEST(json_str(first, "error_class") == cases[i].error_class);
        if (cases[i].status)
          BOOST_TEST(json_int(first, "response_status") == cases[i].status);
        else
          BOOST_TEST(json_is_null(first, "response_status"), "no HTTP status for a transport error");
        BOOST_TEST(json_bool(first, "is_terminal") == false);
        BOOST_TEST(parse_iso8601_ms(json_str(first, "next_attempt_at")) > 0);
      }
    }
  }
  BOOST_TEST(untrusted->request_count() == 0u, "no request got past the TLS handshake");
}

BOOST_FIXTURE_TEST_CASE(twenty_failures_disable_the_endpoint_and_tell_the_team, disable_after_20) {
  auto t = create_webhook_team(*this);
  auto c = api();
  // Shared with the receiver's threads, which may outlive this scope.
  auto bad_fails = std::make_shared<std::atomic<bool>>(true);
  hooks->set_handler([bad_fails](const received_request& r) {
    return r.target == "/bad" && *bad_fails ? status_reply(500) : status_reply(200);
  });
  auto bad = create_endpoint_ok(c, t.write.key, hooks->url("/bad"));
  auto good = create_endpoint_ok(c, t.write.key, hooks->url("/good"));
  auto bad_id = json_str(bad, "id");
  auto good_id = json_str(good, "id");

  for (int i = 0; i < 20; ++i) {
    auto r = test_fire(c, t.write.key, bad_id);
    BOOST_REQUIRE_MESSAGE(r.status == 202, "fire " << i << ": " << r.summary());
  }
  json::value record;
  BOOST_REQUIRE_MESSAGE(wait_until(
                          [&] {
                            record = get_endpoint(c, t.read.key, bad_id);
                            return json_bool(record, "is_active") == false;
                          },
                          20s, 50ms),
                        "not disabled within 20 s: " << json::serialize(record));
  BOOST_TEST(json_int(record, "consecutive_failures").value_or(0) >= 20);
  BOOST_TEST(json_bool(get_endpoint(c, t.read.key, good_id), "is_active") == true);

  // The owner's mail names the endpoint.
  std::vector<std::string> mails;
  BOOST_TEST(wait_until(
               [&] {
                 mails = outbox_mails(svcd.data_dir());
                 return !mails.empty();
               },
               10s, 50ms),
             "no mail in " << svcd.data_dir() << "/outbox");
  bool named = false;
  for (auto& m : mails)
    named = named || m.find(bad_id) != std::string::npos;
  BOOST_TEST(named, "a mail names " << bad_id << (mails.empty() ? std::string{} : ":\n" + mails.front()));
  if (!mails.empty())
    BOOST_TEST(mails.front().find("owner1@example.com") != std::string::npos, "to the team owner");

  // The healthy endpoint hears about it; the disabled one does not.
  auto notice = wait_for_receipt(
    *hooks, [](const receipt& rc) { return rc.type == "webhook.endpoint_disabled"; }, 10s);
  BOOST_REQUIRE_MESSAGE(notice.has_value(), "no webhook.endpoint_disabled within 10 s");
  BOOST_TEST(notice->request.target == "/good");
  BOOST_TEST(svc_signature_valid(notice->request, json_str(good, "secret")));
  BOOST_TEST(json_bool(notice->envelope, "synthetic") == false);
  auto& data = *json_at(notice->envelope, "data");
  BOOST_TEST(json_str(data, "id") == bad_id);
  BOOST_TEST(json_str(data, "object") == "webhook_endpoint");
  BOOST_TEST(json_bool(data, "is_active") == false);
  BOOST_TEST(json_is_null(data, "secret"), "no secret in the event");
  BOOST_TEST(json_str(data, "url") == hooks->url("/bad"));
  BOOST_TEST(json_int(data, "consecutive_failures").value_or(0) >= 20);
  // data is the endpoint's record at the disable (attempts already on the
  // wire may still count failures afterwards, so those fields can move on).
  auto now_record = get_endpoint(c, t.read.key, bad_id);
  for (const char* field : {"id", "object", "url", "events", "secret_preview", "is_active", "metadata", "created_at",
                            "disabled_at"})
    BOOST_TEST((json_at(data, field) && json_at(now_record, field) && *json_at(data, field) == *json_at(now_record, field)),
               field << ": " << json::serialize(data) << " vs " << json::serialize(now_record));
  for (auto& rc : receipts_of(*hooks))
    BOOST_TEST(!(rc.request.target == "/bad" && rc.type == "webhook.endpoint_disabled"));
  auto feed = c.get("/v1/events?type=webhook.endpoint_disabled", with_key(t.read.key)).json();
  BOOST_TEST(json_size(feed, "data") == 1);

  // Disabled: a test fire is accepted but not enqueued.
  auto idle = test_fire(c, t.write.key, bad_id);
  BOOST_TEST(idle.status == 202, idle.summary());
  BOOST_TEST(json_bool(idle.json(), "enqueued") == false, idle.summary());

  // Re-enabled: counter reset, deliveries flow again.
  *bad_fails = false;
  auto patched = patch_endpoint(c, t.write.key, bad_id, json::object{{"is_active", true}});
  BOOST_REQUIRE_MESSAGE(patched.status == 200, patched.summary());
  BOOST_TEST(json_bool(patched.json(), "is_active") == true);
  BOOST_TEST(json_int(patched.json(), "consecutive_failures") == 0);
  BOOST_TEST(json_is_null(patched.json(), "secret"));
  auto back = test_fire_ok(c, t.write.key, bad_id);
  auto delivered = wait_deliveries(
    c, t.read.key, bad_id,
    [&](auto& rows) {
      for (auto& r : rows)
        if (json_str(r, "event_id") == back && json_str(r, "status") == "succeeded")
          return true;
      return false;
    },
    10s);
  bool ok = false;
  for (auto& r : delivered)
    ok = ok || (json_str(r, "event_id") == back && json_str(r, "status") == "succeeded");
  BOOST_TEST(ok, "a delivery succeeds after re-enabling");
  auto final = get_endpoint(c, t.read.key, bad_id);
  BOOST_TEST(json_bool(final, "is_active") == true);
  BOOST_TEST(json_int(final, "consecutive_failures") == 0);
}

BOOST_FIXTURE_TEST_CASE(replay_redelivers_dead_letters_once_the_receiver_is_fixed, replay_fixture) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto failing = std::make_shared<std::atomic<bool>>(true); // shared with the receiver's threads
  hooks->set_handler([failing](const received_request&) { return *failing ? status_reply(503) : status_reply(200); });
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto id = json_str(endpoint, "id");
  auto since = iso8601_ms(std::chrono::system_clock::now() - 1s);

  std::vector<std::string> jobs;
  for (int i = 0; i < 3; ++i)
    jobs.push_back(json_str(create_image_ok(c, t.write.key, image_body("missed " + std::to_string(i))), "id"));
  auto synthetic = test_fire_ok(c, t.write.key, id); // dead-lettered too, but never replayed
  for (auto& j : jobs)
    BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, j), "status") == "succeeded");
  auto feed = c.get("/v1/events?type=image.completed", with_key(t.read.key)).json();
  std::set<std::string> missed;
  for (long i = 0; i < json_size(feed, "data"); ++i)
    missed.insert(json_str(feed, "data." + std::to_string(i) + ".id"));
  BOOST_REQUIRE_EQUAL(missed.size(), jobs.size());

  auto rows = wait_deliveries(
    c, t.read.key, id,
    [&](auto& rows) {
      for (auto& e : missed)
        if (!has_dead_letter(rows, e))
          return false;
      return has_dead_letter(rows, synthetic);
    },
    20s);
  for (auto& e : missed)
    BOOST_REQUIRE_MESSAGE(has_dead_letter(rows, e), e << " not dead-lettered within 20 s");

  *failing = false;
  hooks->clear();
  auto r = c.request("POST", "/v1/webhook_endpoints/" + id + "/replay", with_key(t.write.key),
                     json::serialize(json::object{{"since", since}}));
  BOOST_REQUIRE_MESSAGE(r.status == 202, r.summary());
  BOOST_TEST(json_str(r.json(), "object") == "webhook_replay");
  BOOST_TEST(json_str(r.json(), "endpoint_id") == id);
  BOOST_TEST(json_int(r.json(), "enqueued") == static_cast<std::int64_t>(missed.size()),
             "each missed real event once, no test fire: " << r.summary());
  for (auto& e : missed) {
    auto rc = wait_for_receipt(*hooks, event_is(e), 10s);
    BOOST_TEST_REQUIRE(rc.has_value(), e << " not redelivered");
    BOOST_TEST(svc_signature_valid(rc->request, json_str(endpoint, "secret")));
    BOOST_TEST(json_str(rc->envelope, "type") == "image.completed");
  }
  BOOST_TEST(receipts_of_type(*hooks, "image.completed").size() == missed.size());
  for (auto& rc : receipts_of(*hooks))
    BOOST_TEST(rc.event_id != synthetic, "the test fire is not replayed");

  // Delivered now: nothing left to replay.
  wait_deliveries(
    c, t.read.key, id,
    [&](auto& rows) {
      std::size_t ok = 0;
      for (auto& row : rows)
        ok += json_str(row, "status") == "succeeded" && missed.count(json_str(row, "event_id"));
      return ok >= missed.size();
    },
    10s);
  auto again = c.request("POST", "/v1/webhook_endpoints/" + id + "/replay", with_key(t.write.key),
                         json::serialize(json::object{{"since", since}}));
  BOOST_TEST(again.status == 202, again.summary());
  BOOST_TEST(json_int(again.json(), "enqueued") == 0, again.summary());
  auto future = c.request("POST", "/v1/webhook_endpoints/" + id + "/replay", with_key(t.write.key),
                          json::serialize(json::object{{"since", iso8601_ms(std::chrono::system_clock::now() + 1h)}}));
  BOOST_TEST(is_error(future, 400, "invalid_parameter"), future.summary());
}

BOOST_FIXTURE_TEST_CASE(private_and_loopback_receivers_are_refused_at_create, private_addresses_refused) {
  auto t = create_webhook_team(*this);
  auto c = api();
  std::vector<std::string> refused{"https://127.0.0.1/x", "https://10.1.2.3/x", "https://172.16.0.1/x", "https://192.168.1.1/x",
        "https://169.254.169.254/x", "https://100.64.0.1/x", "https://[::1]/x", "https://[fc00::1]/x",
        "https://[fe80::1]/x", "https://224.0.0.1/x", "https://0.0.0.0/x", "https://[::ffff:127.0.0.1]/x",
        "https://localhost/x", hooks->url()};
  for (auto& url : refused) {
    auto r = create_endpoint(c, t.write.key, url);
    BOOST_TEST_CONTEXT(url << " -> " << r.summary()) {
      BOOST_TEST(is_error(r, 400, "invalid_parameter"));
      BOOST_TEST(json_str(r.json(), "error.param") == "url");
    }
  }
  // The refusal is about the address: a public one is accepted (nothing is sent to it).
  auto public_one = create_endpoint(c, t.write.key, "https://203.0.113.10/x");
  BOOST_TEST(public_one.status == 201, public_one.summary());
  auto plain_http = create_endpoint(c, t.write.key, "http://203.0.113.10/x");
  BOOST_TEST(is_error(plain_http, 400, "invalid_parameter"), plain_http.summary());
  // PATCH applies the same rule.
  auto moved = patch_endpoint(c, t.write.key, json_str(public_one.json(), "id"),
                              json::object{{"url", "https://192.168.0.10/x"}});
  BOOST_TEST(is_error(moved, 400, "invalid_parameter"), moved.summary());
  BOOST_TEST(json_str(moved.json(), "error.param") == "url");
  auto list = c.get("/v1/webhook_endpoints?limit=100", with_key(t.read.key)).json();
  BOOST_TEST(json_size(list, "data") == 1, "only the public endpoint was created");
}

BOOST_AUTO_TEST_SUITE_END()
