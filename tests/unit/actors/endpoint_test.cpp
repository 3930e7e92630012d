#include "actors/endpoint.hpp"

#include <boost/test/unit_test.hpp>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <cmath>
#include <set>
#include <string>

#include "core/metric_catalogue.hpp"
#include "core/shard.hpp"
#include "webhook_fixture.hpp"
#include "tests/support/read_results.hpp"

BOOST_AUTO_TEST_SUITE(actors_endpoint)

// The endpoint actor on virtual time with a scripted receiver: what a
// delivery carries, one row per attempt, the retry schedule, auto-disable,
// secret rotation, restart, test fires, replay and delete. Signatures are
// checked with OpenSSL here, not with the product's signing code.

namespace {

using namespace std::chrono_literals;
using namespace svc::actors;
using namespace svc::schema;
using svc::test::failed_answer;
using svc::test::ok_answer;
using svc::test::server_error;

const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";

// --- the receiver's side, written against OpenSSL directly

std::string hmac_sha256(const std::string& key, const std::string& data) {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()), reinterpret_cast<const unsigned char*>(data.data()),
       data.size(), mac, &len);
  return std::string(reinterpret_cast<const char*>(mac), len);
}

std::string hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : bytes) {
    out.push_back(digits[c >> 4]);
    out.push_back(digits[c & 15]);
  }
  return out;
}

std::string base64(const std::string& bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  auto n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                           reinterpret_cast<const unsigned char*>(bytes.data()), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  return out;
}

std::string unbase64(const std::string& text) {
  BOOST_REQUIRE(text.size() % 4 == 0);
  std::string out(3 * text.size() / 4, '\0');
  auto n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                           reinterpret_cast<const unsigned char*>(text.data()), static_cast<int>(text.size()));
  BOOST_REQUIRE(n >= 0);
  std::size_t pad = 0;
  for (auto it = text.rbegin(); it != text.rend() && *it == '='; ++it)
    ++pad;
  out.resize(static_cast<std::size_t>(n) - pad);
  return out;
}

// `Svc-Webhook-Signature: t=<unix>,v1=<hex>` checked as a Stripe-style receiver
// does, keyed with the whole secret; `t` is required to be `expected_t`.
bool stripe_verifies(const std::string& header, const std::string& body, const std::string& secret,
                     int64_t expected_t) {
  auto comma = header.find(',');
  if (header.compare(0, 2, "t=") != 0 || comma == std::string::npos || header.compare(comma + 1, 3, "v1=") != 0)
    return false;
  auto t = header.substr(2, comma - 2);
  if (t != std::to_string(expected_t) || t.size() != 10)
    return false;
  return header.substr(comma + 4) == hex(hmac_sha256(secret, t + "." + body));
}

// The Standard Webhooks check: key = base64-decode of what follows `whsec_`,
// payload `id.t.body`, signature `v1,<base64>`.
bool standard_verifies(const svc::test::scripted_transport::call& c, const std::string& secret) {
  BOOST_REQUIRE(secret.rfind("whsec_", 0) == 0);
  auto key = unbase64(secret.substr(6));
  BOOST_REQUIRE(key.size() == 32u);
  auto payload = c.header("webhook-id") + "." + c.header("webhook-timestamp") + "." + c.post.body;
  return c.header("webhook-signature") == "v1," + base64(hmac_sha256(key, payload));
}

int64_t unix_s(svc::core::time_point t) { return svc::core::to_unix_ms(t) / 1000; }

std::size_t attempts_of(const std::vector<delivery_record>& rows, int attempt) {
  return static_cast<std::size_t>(
    std::count_if(rows.begin(), rows.end(), [&](const delivery_record& d) { return d.attempt == attempt; }));
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(endpoint_suite, svc::test::webhook_fixture)

BOOST_AUTO_TEST_CASE(a_delivery_carries_every_header_and_both_signatures) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  advance(1500ms); // a clock off the whole second: `t` is truncated, not rounded
  auto [ev, task] = deliver_new_event(ep, e);

  BOOST_REQUIRE(transport.size() == 1u);
  auto& c = transport.at(0);
  BOOST_TEST(c.post.url == e.url);
  BOOST_TEST(c.post.body == ev.body); // byte-identical to the stored envelope
  BOOST_TEST(c.post.body == svc::test::found(tables.events.get(ev.id))->body);
  for (auto name : {"Content-Type", "User-Agent", "Svc-Event-Id", "Svc-Event-Type", "Svc-Version",
                    "Svc-Webhook-Signature", "webhook-id", "webhook-timestamp", "webhook-signature"})
    BOOST_TEST(c.header_count(name) == 1u, name);
  BOOST_TEST(c.header("Content-Type") == "application/json");
  BOOST_TEST(c.header("User-Agent") == "Svc-Webhooks/1.0");
  BOOST_TEST(c.header("Svc-Event-Id") == ev.id);
  BOOST_TEST(c.header("Svc-Event-Type") == "image.completed");
  BOOST_TEST(c.header("Svc-Version") == ev.api_version);
  BOOST_TEST(c.header("Svc-Version") == version);

  auto t = unix_s(now());
  BOOST_TEST(c.header("Svc-Webhook-Signature").rfind("t=" + std::to_string(t) + ",v1=", 0) == 0u);
  BOOST_TEST(stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body, e.secret, t));
  BOOST_TEST(!stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body + " ", e.secret, t));
  BOOST_TEST(!stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body, svc::schema::make_webhook_secret(), t));

  BOOST_TEST(c.header("webhook-id") == ev.id);
  BOOST_TEST(c.header("webhook-timestamp") == std::to_string(t));
  BOOST_TEST(standard_verifies(c, e.secret));
  BOOST_TEST(!standard_verifies(c, svc::schema::make_webhook_secret()));
  answer(0, ok_answer());
}

BOOST_AUTO_TEST_CASE(a_success_writes_one_terminal_row_and_clears_the_task) {
  auto e = make_endpoint();
  e.consecutive_failures = 2;
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto [ev, task] = deliver_new_event(ep, e);
  BOOST_REQUIRE(transport.size() == 1u);
  BOOST_TEST(tasks_of(e.id).size() == 1u); // the task stays until the attempt ends
  advance(250ms);
  answer(0, ok_answer(204, 42ms));

  auto rows = deliveries_of(e.id);
  BOOST_REQUIRE(rows.size() == 1u);
  auto& d = rows[0];
  BOOST_TEST(d.id.rfind("dlv_", 0) == 0u);
  BOOST_TEST((svc::core::shard_of_id(d.id) == svc::core::shard_of_team(team)), d.id << " names the team's shard");
  BOOST_TEST(d.endpoint_id == e.id);
  BOOST_TEST(d.team_id == team);
  BOOST_TEST(d.event_id == ev.id);
  BOOST_TEST(d.event_type == "image.completed");
  BOOST_TEST(d.attempt == 1);
  BOOST_TEST(d.succeeded);
  BOOST_TEST(d.is_terminal);
  BOOST_TEST(!d.is_dead_letter);
  BOOST_TEST((d.error == delivery_error::none));
  BOOST_REQUIRE(d.response_status);
  BOOST_TEST(*d.response_status == 204);
  BOOST_TEST(d.duration_ms == 42);
  BOOST_TEST(!d.next_attempt_at);
  BOOST_TEST((d.created_at == now()));
  BOOST_TEST(tasks_of(e.id).empty());
  auto delivered = svc::test::found(tables.delivered_events.get(svc::persistence::owned_key(e.id, ev.id)));
  BOOST_REQUIRE(delivered);
  BOOST_TEST(*delivered == d.id);
  auto r = stored(e.id);
  BOOST_TEST(r.consecutive_failures == 0);
  BOOST_REQUIRE(r.last_success_at);
  BOOST_TEST((*r.last_success_at == now()));
  BOOST_TEST(r.is_active);
  // Nothing is retried later.
  advance(1h);
  BOOST_TEST(transport.size() == 1u);
  BOOST_TEST(deliveries_of(e.id).size() == 1u);
}

// Delivery latency runs from the event's creation to the attempt that
// succeeded, retries included; the failed attempt adds no observation.
BOOST_AUTO_TEST_CASE(delivery_latency_is_observed_once_from_the_event_to_its_success) {
  auto& latency = svc::core::metrics::svc().webhook_delivery_latency.get();
  auto count_before = latency.count();
  auto sum_before = latency.sum();
  auto p = store_pending_delivery();
  advance(1s); // the fan-out took a while
  deliver(p.actor, p.task);
  answer(0, server_error());
  BOOST_TEST(latency.count() == count_before, "a failed attempt delivered nothing");
  advance(5s);
  BOOST_REQUIRE(transport.size() == 2u);
  advance(250ms);
  answer(1, ok_answer());
  BOOST_TEST(latency.count() == count_before + 1);
  BOOST_TEST(std::abs(latency.sum() - sum_before - 6.25) < 1e-6, latency.sum() - sum_before);
}

BOOST_AUTO_TEST_CASE(a_failing_receiver_is_retried_on_the_schedule_then_dead_lettered) {
  cfg.disable_failures = 100; // this test is about retries only
  auto [e, ep, ev, task] = store_pending_delivery();
  auto start = now();
  deliver(ep, task);
  BOOST_REQUIRE(transport.size() == 1u);

  std::string big(5 * 1024, 'x');
  for (std::size_t i = 0; i < big.size(); ++i)
    big[i] = static_cast<char>('a' + i % 26);
  // Each attempt fails in another way; the gaps are the configured schedule.
  std::vector<svc::actors::webhook_answer> answers{
    failed_answer(delivery_error::http_5xx, 503, big, "the receiver answered 503"),
    failed_answer(delivery_error::timeout, std::nullopt, {}, "no answer within 10 s"),
    failed_answer(delivery_error::connect_refused, std::nullopt, {}, "connection refused"),
    failed_answer(delivery_error::http_4xx, 404, "not here", "the receiver answered 404"),
    failed_answer(delivery_error::tls_error, std::nullopt, {}, "certificate verify failed")};
  std::vector<std::chrono::milliseconds> gaps{5s, 30s, 2min, 10min};
  std::vector<svc::core::time_point> attempted_at{start};
  for (std::size_t i = 0; i < answers.size(); ++i) {
    answer(i, answers[i]);
    BOOST_TEST(deliveries_of(e.id).size() == i + 1);
    if (i == gaps.size())
      break;
    auto stored_task = tasks_of(e.id);
    BOOST_REQUIRE(stored_task.size() == 1u);
    BOOST_TEST(stored_task[0].attempt == static_cast<int>(i) + 2);
    BOOST_TEST((stored_task[0].due_at == now() + gaps[i]));
    advance(gaps[i] - 1ms);
    BOOST_TEST(transport.size() == i + 1, "attempt " << i + 2 << " came early");
    advance(1ms);
    BOOST_TEST(transport.size() == i + 2, "attempt " << i + 2 << " is late");
    BOOST_REQUIRE(transport.size() == i + 2);
    attempted_at.push_back(now());
    // Every attempt is signed anew, with the time it was made.
    BOOST_TEST(transport.at(i + 1).header("webhook-timestamp") == std::to_string(unix_s(now())));
    BOOST_TEST(transport.at(i + 1).post.body == ev.body);
  }

  auto rows = deliveries_of(e.id);
  BOOST_REQUIRE(rows.size() == 5u);
  std::sort(rows.begin(), rows.end(), [](auto& a, auto& b) { return a.attempt < b.attempt; });
  for (int a = 1; a <= 5; ++a) {
    auto& d = rows[static_cast<std::size_t>(a - 1)];
    BOOST_TEST(d.attempt == a);
    BOOST_TEST(!d.succeeded);
    BOOST_TEST(d.event_id == ev.id);
    BOOST_TEST((d.created_at == attempted_at[static_cast<std::size_t>(a - 1)]));
    BOOST_TEST((d.error == answers[static_cast<std::size_t>(a - 1)].error));
    if (a < 5) {
      BOOST_TEST(!d.is_terminal);
      BOOST_TEST(!d.is_dead_letter);
      BOOST_REQUIRE(d.next_attempt_at);
      BOOST_TEST((*d.next_attempt_at == attempted_at[static_cast<std::size_t>(a)]));
    }
  }
  BOOST_REQUIRE(rows[0].response_status);
  BOOST_TEST(*rows[0].response_status == 503);
  BOOST_TEST(rows[0].response_body.size() == 1024u);
  BOOST_TEST(rows[0].response_body == big.substr(0, 1024));
  BOOST_TEST(rows[0].error_detail == "the receiver answered 503");
  BOOST_TEST(!rows[1].response_status);
  BOOST_TEST(rows[1].response_body.empty());
  BOOST_TEST(*rows[3].response_status == 404);
  BOOST_TEST(rows[3].response_body == "not here");
  BOOST_TEST(rows[4].is_terminal);
  BOOST_TEST(rows[4].is_dead_letter);
  BOOST_TEST(!rows[4].next_attempt_at);
  BOOST_TEST(tasks_of(e.id).empty());
  BOOST_TEST(!svc::test::found(tables.delivered_events.get(svc::persistence::owned_key(e.id, ev.id))));
  auto r = stored(e.id);
  BOOST_TEST(r.consecutive_failures == 5);
  BOOST_TEST(r.is_active);
  BOOST_REQUIRE(r.last_failure_at);
  BOOST_TEST((*r.last_failure_at == now()));
  BOOST_TEST(!r.last_success_at);
  // A dead letter is never tried again.
  advance(1h);
  BOOST_TEST(transport.size() == 5u);
  BOOST_TEST(attempts_of(deliveries_of(e.id), 5) == 1u);
}

// The owner's mail is part of the disable's commit (a `mail_queue` row), so
// a crash cannot keep the one without the other; then the mailer is told.
BOOST_AUTO_TEST_CASE(the_owners_mail_is_queued_in_the_disables_commit) {
  auto flushes = std::make_shared<int>(0);
  auto mailer = track(sys.spawn(
    [](svc::actors::mailer_actor::pointer, std::shared_ptr<int> told) -> svc::actors::mailer_actor::behavior_type {
      return {
        [](svc::actors::send_atom, svc::core::mail_message&) { return true; },
        [told](svc::actors::queued_atom) { ++*told; },
        [](svc::actors::retry_atom, uint64_t) {},
        [](svc::actors::flush_atom) {},
        [](svc::actors::fault_atom) {},
        [](svc::actors::describe_atom) -> svc::actors::actor_status { return {"stand-in mailer", 0}; },
      };
    },
    flushes));
  auto with_mailer = services();
  with_mailer.mailer = mailer;
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = track(sys.spawn(svc::actors::endpoint, ctx(), with_mailer, e));
  run_pending();
  auto [ev, task] = deliver_new_event(ep, e);
  answer(0, server_error());
  advance(5s);
  answer(1, server_error());
  advance(30s);
  BOOST_REQUIRE(transport.size() == 3u);
  answer(2, server_error());
  BOOST_REQUIRE(!stored(e.id).is_active);

  std::vector<svc::schema::queued_mail> rows;
  BOOST_REQUIRE(tables.mail_queue.for_each([&](const svc::schema::queued_mail& r) {
    rows.push_back(r);
    return true;
  }).ok());
  BOOST_REQUIRE_EQUAL(rows.size(), 1u);
  BOOST_TEST(rows[0].message.to == "owner@" + team + ".example");
  BOOST_TEST(rows[0].message.subject.find(e.id) != std::string::npos);
  BOOST_TEST(rows[0].attempts == 0);
  BOOST_TEST((rows[0].due_at <= now()));
  BOOST_TEST(*flushes == 1);
}

BOOST_AUTO_TEST_CASE(failures_with_no_success_disable_the_endpoint_until_patched) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto ev = make_event();
  auto later = make_event();
  store_event(ev);
  store_event(later);
  auto failing = make_task(e, ev);
  auto queued = make_task(e, later, now() + 1h); // waits in the queue
  store_task(failing);
  store_task(queued);
  deliver(ep, failing);
  deliver(ep, queued);
  BOOST_REQUIRE(transport.size() == 1u);

  answer(0, server_error());
  advance(5s);
  BOOST_REQUIRE(transport.size() == 2u);
  answer(1, server_error());
  BOOST_TEST(stored(e.id).is_active); // two failures are not enough
  BOOST_TEST(stored(e.id).consecutive_failures == 2);
  advance(30s);
  BOOST_REQUIRE(transport.size() == 3u);
  answer(2, server_error());

  auto r = stored(e.id);
  BOOST_TEST(!r.is_active);
  BOOST_TEST(r.consecutive_failures == 3);
  BOOST_REQUIRE(r.disabled_at);
  BOOST_TEST((*r.disabled_at == now()));
  BOOST_TEST(deliveries_of(e.id).size() == 3u);
  BOOST_TEST(tasks_of(e.id).empty()); // the retry and the queued task are dropped

  // The `webhook.endpoint_disabled` event waits for its fan-out; its data is the endpoint, no secret.
  auto pending = pending_event_ids();
  BOOST_REQUIRE(pending.size() == 1u);
  auto disabled = svc::test::found(tables.events.get(pending[0]));
  BOOST_REQUIRE(disabled);
  BOOST_TEST(disabled->type == "webhook.endpoint_disabled");
  BOOST_TEST(disabled->team_id == team);
  BOOST_TEST(!disabled->synthetic);
  BOOST_TEST(disabled->api_version == version);
  BOOST_TEST(listed(*disabled));
  auto data = data_of(disabled->body);
  BOOST_TEST(data.at("id").as_string() == e.id);
  BOOST_TEST(data.at("object").as_string() == "webhook_endpoint");
  BOOST_TEST(data.at("secret").is_null());
  BOOST_TEST(data.at("is_active").as_bool() == false);
  BOOST_TEST(data == svc::schema::webhook_endpoint_view(r));
  BOOST_TEST(disabled->body.find(e.secret) == std::string::npos);

  // Neither the dropped retry nor the queued task is attempted; a new delivery is dropped too.
  advance(1h);
  BOOST_TEST(transport.size() == 3u);
  auto third = make_event();
  store_event(third);
  auto refused = make_task(e, third);
  store_task(refused);
  deliver(ep, refused);
  BOOST_TEST(transport.size() == 3u);
  BOOST_TEST(tasks_of(e.id).empty());

  // PATCH is_active true re-enables and resets the count.
  endpoint_patch p;
  p.is_active = true;
  auto patched = ask<webhook_endpoint_record>(ep, patch_atom::value, p);
  BOOST_REQUIRE(patched.value);
  BOOST_TEST(patched.value->is_active);
  BOOST_TEST(patched.value->consecutive_failures == 0);
  BOOST_TEST(!patched.value->disabled_at);
  r = stored(e.id);
  BOOST_TEST(r.is_active);
  BOOST_TEST(r.consecutive_failures == 0);
  BOOST_TEST(!r.disabled_at);
  auto again = make_task(e, third);
  store_task(again);
  deliver(ep, again);
  BOOST_REQUIRE(transport.size() == 4u);
  BOOST_TEST(transport.at(3).header("Svc-Event-Id") == third.id);
  answer(3, ok_answer());
  BOOST_TEST(stored(e.id).consecutive_failures == 0);
}

// An attempt in flight when the endpoint is disabled still gets its row (one
// per attempt), and a 2xx still marks the event delivered.
BOOST_AUTO_TEST_CASE(an_attempt_in_flight_at_disable_still_gets_its_row) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  std::vector<svc::schema::event_record> events;
  for (int i = 0; i < 4; ++i) {
    events.push_back(make_event());
    store_event(events.back());
    auto t = make_task(e, events.back());
    store_task(t);
    deliver(ep, t);
  }
  BOOST_REQUIRE(transport.size() == 4u);
  for (std::size_t i = 0; i < 3; ++i)
    answer(i, server_error());
  BOOST_REQUIRE(!stored(e.id).is_active);
  answer(3, ok_answer()); // the receiver took the fourth event
  BOOST_TEST(deliveries_of(e.id).size() == 4u);
  BOOST_TEST(svc::test::found(tables.delivered_events.get(svc::persistence::owned_key(e.id, events[3].id))).has_value());
  BOOST_TEST(transport.size() == 4u);
}

BOOST_AUTO_TEST_CASE(a_recent_success_holds_off_disable_until_its_window_ends) {
  cfg.disable_window = 1min;
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto good = make_event();
  auto bad = make_event();
  store_event(good);
  store_event(bad);
  auto succeeding = make_task(e, good);
  auto failing = make_task(e, bad);
  store_task(succeeding);
  store_task(failing);
  deliver(ep, succeeding);
  deliver(ep, failing);
  BOOST_REQUIRE(transport.size() == 2u);
  auto success_at = now();
  answer(0, ok_answer());
  answer(1, server_error());
  advance(5s);
  BOOST_REQUIRE(transport.size() == 3u);
  answer(2, server_error());
  advance(30s);
  BOOST_REQUIRE(transport.size() == 4u);
  answer(3, server_error());

  // Three failures, but a success 35 s ago: still active.
  auto r = stored(e.id);
  BOOST_TEST(r.consecutive_failures == 3);
  BOOST_TEST(r.is_active);
  BOOST_TEST(pending_event_ids().empty());
  BOOST_REQUIRE(r.last_success_at);
  BOOST_TEST((*r.last_success_at == success_at));

  // The window ends 60 s after the success, with no further failure needed.
  advance(time_until(success_at + 1min) - 1ms);
  BOOST_TEST(stored(e.id).is_active);
  advance(1ms);
  r = stored(e.id);
  BOOST_TEST(!r.is_active);
  BOOST_REQUIRE(r.disabled_at);
  BOOST_TEST((*r.disabled_at == success_at + 1min));
  BOOST_TEST(pending_event_ids().size() == 1u);
  BOOST_TEST(tasks_of(e.id).empty());
  // Attempt 4 (due at +2 min 35 s) is gone with the queue.
  advance(5min);
  BOOST_TEST(transport.size() == 4u);
}

BOOST_AUTO_TEST_CASE(rotation_signs_with_the_new_secret_and_drops_the_old_after_the_grace) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto rotated_at = now();
  auto rotated = ask<webhook_endpoint_record>(ep, rotate_atom::value);
  BOOST_REQUIRE(rotated.value);
  auto& nr = *rotated.value;
  BOOST_TEST(nr.secret != e.secret);
  BOOST_TEST(nr.secret.rfind("whsec_", 0) == 0u);
  BOOST_TEST(nr.previous_secret == e.secret);
  BOOST_REQUIRE(nr.previous_secret_expires_at);
  BOOST_TEST((*nr.previous_secret_expires_at == rotated_at + 1h));
  auto r = stored(e.id);
  BOOST_TEST(r.secret == nr.secret);
  BOOST_TEST(r.previous_secret == e.secret);
  BOOST_TEST((r.previous_secret_expires_at == nr.previous_secret_expires_at));

  advance(10s);
  auto [ev, task] = deliver_new_event(ep, e);
  BOOST_REQUIRE(transport.size() == 1u);
  auto& c = transport.at(0);
  auto t = unix_s(now());
  BOOST_TEST(stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body, nr.secret, t));
  BOOST_TEST(!stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body, e.secret, t));
  auto sig = c.header("Svc-Webhook-Signature");
  BOOST_TEST(sig.find("v1=") == sig.rfind("v1=")); // one signature only
  BOOST_TEST(standard_verifies(c, nr.secret));
  BOOST_TEST(!standard_verifies(c, e.secret));
  answer(0, ok_answer());

  advance(time_until(rotated_at + 1h) - 1ms);
  BOOST_TEST(stored(e.id).previous_secret == e.secret);
  advance(1ms);
  r = stored(e.id);
  BOOST_TEST(r.previous_secret.empty());
  BOOST_TEST(!r.previous_secret_expires_at);
  BOOST_TEST(r.secret == nr.secret);
}

BOOST_AUTO_TEST_CASE(a_second_rotation_restarts_the_grace_of_the_latest_previous_secret) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto first = ask<webhook_endpoint_record>(ep, rotate_atom::value);
  BOOST_REQUIRE(first.value);
  advance(10min);
  auto second_at = now();
  auto second = ask<webhook_endpoint_record>(ep, rotate_atom::value);
  BOOST_REQUIRE(second.value);
  BOOST_TEST(second.value->previous_secret == first.value->secret);
  BOOST_TEST((*second.value->previous_secret_expires_at == second_at + 1h));

  advance(50min); // the first grace timer fires, but it no longer owns the record
  auto r = stored(e.id);
  BOOST_TEST(r.previous_secret == first.value->secret);
  BOOST_TEST(r.secret == second.value->secret);
  advance(time_until(second_at + 1h) - 1ms);
  BOOST_TEST(stored(e.id).previous_secret == first.value->secret);
  advance(1ms);
  BOOST_TEST(stored(e.id).previous_secret.empty());
  BOOST_TEST(stored(e.id).secret == second.value->secret);
}

BOOST_AUTO_TEST_CASE(stored_tasks_are_resumed_at_their_due_time) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto overdue_event = make_event();
  auto future_event = make_event();
  store_event(overdue_event);
  store_event(future_event);
  auto overdue = make_task(e, overdue_event, now() - 1min);
  overdue.attempt = 3; // a retry a crash interrupted
  auto future = make_task(e, future_event, now() + 10min);
  store_task(overdue);
  store_task(future);

  spawn_endpoint(e);
  BOOST_REQUIRE(transport.size() == 1u); // the overdue one at once
  BOOST_TEST(transport.at(0).header("Svc-Event-Id") == overdue_event.id);
  answer(0, server_error());
  auto rows = deliveries_of(e.id);
  BOOST_REQUIRE(rows.size() == 1u);
  BOOST_TEST(rows[0].attempt == 3);
  BOOST_TEST((*rows[0].next_attempt_at == now() + 2min)); // the gap before attempt 4

  advance(10min - 1ms);
  BOOST_TEST(transport.size() == 2u); // attempt 4 of the overdue task came at +2 min
  BOOST_TEST(transport.at(1).header("Svc-Event-Id") == overdue_event.id);
  advance(1ms);
  BOOST_REQUIRE(transport.size() == 3u);
  BOOST_TEST(transport.at(2).header("Svc-Event-Id") == future_event.id);
  answer(1, ok_answer());
  answer(2, ok_answer());
  BOOST_TEST(tasks_of(e.id).empty());
}

BOOST_AUTO_TEST_CASE(at_most_sixteen_attempts_are_in_flight) {
  auto e = make_endpoint();
  store_endpoint(e);
  std::vector<std::string> events;
  for (int i = 0; i < 40; ++i) {
    auto ev = make_event();
    store_event(ev);
    store_task(make_task(e, ev));
    events.push_back(ev.id);
  }
  spawn_endpoint(e);
  BOOST_TEST(transport.size() == svc::actors::max_parallel_deliveries);
  std::size_t most = 0;
  while (auto i = transport.first_unanswered()) {
    most = std::max(most, transport.unanswered());
    if (transport.size() < 40u) // a free slot is filled as soon as one frees
      BOOST_TEST(transport.unanswered() == 16u);
    answer(*i, ok_answer());
  }
  BOOST_TEST(most == 16u);
  BOOST_TEST(transport.size() == 40u);
  std::set<std::string> posted;
  for (auto& c : transport.calls())
    posted.insert(c.header("Svc-Event-Id"));
  BOOST_TEST((posted == std::set<std::string>(events.begin(), events.end())));
  BOOST_TEST(tasks_of(e.id).empty());
  BOOST_TEST(deliveries_of(e.id).size() == 40u);
}

BOOST_AUTO_TEST_CASE(a_test_fire_is_a_signed_synthetic_delivery) {
  auto e = make_endpoint({"image.completed"});
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  // The request that fires it applied another version than the team's default.
  const std::string request_version = version == "2026-01-15" ? "2026-09-01" : "2026-01-15";
  auto fired = ask<test_fire>(ep, test_fire_atom::value, std::string{"image.completed"}, request_version,
                              svc::schema::correlation{"client-abc", svc::schema::trace_parent{trace, "01"}});
  BOOST_REQUIRE(fired.value);
  BOOST_TEST(fired.value->enqueued);
  BOOST_TEST(fired.value->endpoint_id == e.id);
  BOOST_TEST(fired.value->event_id.rfind("evt_", 0) == 0u);
  BOOST_REQUIRE(transport.size() == 1u);
  auto& c = transport.at(0);
  auto body = boost::json::parse(c.post.body);
  BOOST_TEST(body.at("synthetic").as_bool());
  BOOST_TEST(body.at("id").as_string() == fired.value->event_id);
  BOOST_TEST(body.at("type").as_string() == "image.completed");
  BOOST_TEST(body.at("data").at("object").as_string() == "image");
  // The sample's id and the event's name the team's shard, as real ones do.
  auto shard = svc::core::shard_of_team(team);
  BOOST_TEST((svc::core::shard_of_id(std::string(body.at("data").at("id").as_string())) == shard));
  BOOST_TEST((svc::core::shard_of_id(fired.value->event_id) == shard));
  BOOST_TEST(!body.at("data").as_object().contains("synthetic")); // on the envelope, never in data
  BOOST_TEST(c.header("Svc-Event-Id") == fired.value->event_id);
  BOOST_TEST(c.header("Svc-Version") == request_version);
  BOOST_TEST(body.at("api_version").as_string() == request_version);
  BOOST_TEST(body.at("data").at("api_version").as_string() == request_version);
  BOOST_TEST(stripe_verifies(c.header("Svc-Webhook-Signature"), c.post.body, e.secret, unix_s(now())));
  BOOST_TEST(c.header("X-Request-Id") == "client-abc");
  BOOST_TEST(c.header("traceparent").rfind("00-" + trace + "-", 0) == 0u);
  auto ev = svc::test::found(tables.events.get(fired.value->event_id));
  BOOST_REQUIRE(ev);
  BOOST_TEST(ev->synthetic);
  BOOST_TEST(ev->correlation.request_id == "client-abc", "stored with the event: a retry after a restart sends it too");
  BOOST_TEST(!listed(*ev));
  BOOST_TEST(pending_event_ids().empty());
  answer(0, ok_answer());
  BOOST_TEST(deliveries_of(e.id).size() == 1u);

  // A type the endpoint does not subscribe to is still sent.
  auto other = ask<test_fire>(ep, test_fire_atom::value, std::string{"video.failed"}, std::string{"2026-09-01"},
                              svc::schema::correlation{});
  BOOST_REQUIRE(other.value);
  BOOST_TEST(other.value->enqueued);
  BOOST_REQUIRE(transport.size() == 2u);
  BOOST_TEST(transport.at(1).header("Svc-Event-Type") == "video.failed");
  BOOST_TEST(transport.at(1).header_count("X-Request-Id") == 0u, "no request id where none was given");
  answer(1, ok_answer());
}

BOOST_AUTO_TEST_CASE(a_test_fire_on_a_disabled_endpoint_is_not_enqueued) {
  auto e = make_endpoint();
  e.is_active = false;
  store_endpoint(e);
  auto ep = spawn_endpoint(e);
  auto fired = ask<test_fire>(ep, test_fire_atom::value, std::string{"image.completed"}, std::string{"2026-09-01"},
                              svc::schema::correlation{});
  BOOST_REQUIRE(fired.value);
  BOOST_TEST(!fired.value->enqueued);
  BOOST_TEST(fired.value->endpoint_id == e.id);
  advance(1h);
  BOOST_TEST(transport.size() == 0u);
  BOOST_TEST(tasks_of(e.id).empty());
}

// Replay's lower key bound comes from the time itself (`core::ulid_floor`),
// not from the ULID generator, which never goes back in time: ids minted
// after the events (the replay request's own) must not hide them.
BOOST_AUTO_TEST_CASE(replay_enqueues_what_the_endpoint_missed_since_a_time) {
  auto e = make_endpoint({"image.completed", "image.failed"});
  e.created_at = now() - 1h;
  store_endpoint(e);
  auto before = now() - 1min;
  auto e1 = make_event("image.completed");
  auto e2 = make_event("image.failed");
  auto e3 = make_event("image.completed");
  auto e4 = make_event("video.completed"); // not subscribed
  for (auto* ev : {&e1, &e2, &e3, &e4})
    store_event(*ev);
  svc::persistence::write_batch batch; // e3 already reached the endpoint
  tables.delivered_events.put(batch, svc::persistence::owned_key(e.id, e3.id), "dlv_earlier");
  commit(std::move(batch));
  auto ep = spawn_endpoint(e);

  // Since just after them: nothing.
  auto none = ask<int64_t>(ep, replay_atom::value, now() + 1ms);
  BOOST_TEST(none.value.value_or(-1) == 0);
  BOOST_TEST(transport.size() == 0u);

  // The replay request arrives a few real milliseconds later and, like every
  // request, gets an id (wait for the system clock's millisecond to move on).
  auto minted = std::chrono::system_clock::now();
  while (std::chrono::system_clock::now() < minted + 2ms) {
  }
  BOOST_TEST(svc::core::make_id("req").size() == 30u);

  auto two = ask<int64_t>(ep, replay_atom::value, before);
  BOOST_TEST(two.value.value_or(-1) == 2);
  BOOST_TEST(transport.size() == 2u);
  std::set<std::string> posted;
  for (auto& c : transport.calls())
    posted.insert(c.header("Svc-Event-Id"));
  BOOST_TEST((posted == std::set<std::string>{e1.id, e2.id}));
  // Events already pending are not enqueued twice.
  auto again = ask<int64_t>(ep, replay_atom::value, before);
  BOOST_TEST(again.value.value_or(-1) == 0);
  for (std::size_t i = 0; i < transport.size(); ++i)
    answer(i, ok_answer());
  BOOST_TEST(tasks_of(e.id).empty());
}

BOOST_AUTO_TEST_CASE(replay_on_a_disabled_endpoint_is_invalid_state) {
  auto e = make_endpoint();
  e.is_active = false;
  e.created_at = now() - 1h;
  store_endpoint(e);
  store_event(make_event());
  auto ep = spawn_endpoint(e);
  auto r = ask<int64_t>(ep, replay_atom::value, now() - 1min);
  BOOST_REQUIRE(r.answered);
  BOOST_TEST(!r.value);
  BOOST_TEST((code_of(r.error) == error_code::invalid_state));
  BOOST_TEST(transport.size() == 0u);
}

BOOST_AUTO_TEST_CASE(delete_erases_the_endpoint_and_its_tasks_then_exits) {
  auto e = make_endpoint();
  store_endpoint(e);
  auto ev = make_event();
  store_event(ev);
  store_task(make_task(e, ev, now() + 10min));
  store_task(make_task(e, ev, now() + 20min));
  auto ep = spawn_endpoint(e);
  BOOST_TEST(tasks_of(e.id).size() == 2u);
  self->monitor(ep);

  auto deleted = ask<bool>(ep, delete_atom::value);
  BOOST_REQUIRE(deleted.value);
  BOOST_TEST(*deleted.value);
  BOOST_TEST(!svc::test::found(tables.webhook_endpoints.get(e.id)));
  BOOST_TEST(!svc::test::found(tables.endpoints_by_team.get(svc::persistence::owned_key(team, e.id))));
  BOOST_TEST(tasks_of(e.id).empty());
  bool down = false;
  self->receive([&](caf::down_msg& dm) { down = dm.source == ep.address(); },
                caf::after(std::chrono::seconds{0}) >> [] {});
  BOOST_TEST(down);
  advance(30min); // its timers find nobody
  BOOST_TEST(transport.size() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
