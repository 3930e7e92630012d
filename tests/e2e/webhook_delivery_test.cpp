// Webhook deliveries that succeed (spec "Events", decisions.md "Webhooks"):
// an endpoint for an HTTPS receiver signed by a test CA gets image.completed
// and image.cancelled with every header, a Stripe-style and a Standard
// Webhooks signature (both checked here with OpenSSL), and the envelope whose
// data is the image record; test fires are synthetic and not in GET
// /v1/events; the events feed is newest first with a type filter; the
// deliveries list pages; a rotated secret signs the next delivery;
// usage.balance_low is debounced.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_webhook_delivery)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::set<std::string> v1_event_types = {"image.completed",   "image.failed",    "image.cancelled",
                                              "video.completed",   "video.failed",    "video.cancelled",
                                              "usage.balance_low", "webhook.endpoint_disabled"};

struct short_retries : webhook_fixture {
  short_retries() : webhook_fixture({"--retry-schedule", "200ms,400ms,600ms,800ms"}) {}
};

// One worker, 1 s per render: a job can be cancelled while it runs.
struct slow_renders : webhook_fixture {
  slow_renders() : webhook_fixture({"--retry-schedule", "200ms,400ms,600ms,800ms", "--render-delay", "1s", "--workers", "1"}) {}
};

struct debounce_1h : webhook_fixture {
  debounce_1h() : webhook_fixture({"--balance-low-debounce", "1h"}) {}
};

struct debounce_300ms : webhook_fixture {
  debounce_300ms() : webhook_fixture({"--balance-low-debounce", "300ms"}) {}
};

std::set<std::string> strings_of(const json::value& v, std::string_view path) {
  std::set<std::string> out;
  for (long i = 0; i < json_size(v, path); ++i)
    out.insert(json_str(v, std::string{path} + "." + std::to_string(i)));
  return out;
}

bool is_iso8601_ms(const std::string& s) {
  static const std::regex shape{R"(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)"};
  return std::regex_match(s, shape) && parse_iso8601_ms(s) > 0;
}

// Every header the contract lists, both signatures, and the envelope's
// agreement with the headers.
void expect_signed_delivery(const receipt& rc, const std::string& secret, const std::string& api_version) {
  auto& r = rc.request;
  BOOST_TEST(r.method == "POST");
  BOOST_TEST(r.target == "/hooks");
  auto sig = r.header("Svc-Webhook-Signature").value_or("");
  auto parsed = parse_svc_signature(sig);
  BOOST_TEST(parsed.has_value(), "Svc-Webhook-Signature shape: " << sig);
  if (parsed) {
    auto t = std::stoll(parsed->t);
    BOOST_TEST(std::llabs(t - unix_now()) <= 300, "t=" << t << " is the minting time");
  }
  BOOST_TEST(svc_signature_valid(r, secret), "HMAC-SHA256(secret, t.body) matches " << sig);
  BOOST_TEST(standard_signature_valid(r, secret), "Standard Webhooks signature "
                                                      << r.header("webhook-signature").value_or("(none)"));
  BOOST_TEST(r.header("Svc-Event-Id").value_or("") == rc.event_id);
  BOOST_TEST(rc.event_id.rfind("evt_", 0) == 0, rc.event_id);
  BOOST_TEST(r.header("Svc-Event-Type").value_or("") == rc.type);
  BOOST_TEST(r.header("Svc-Version").value_or("") == api_version);
  BOOST_TEST(r.header("User-Agent").value_or("").find("1.0") != std::string::npos,
             r.header("User-Agent").value_or("(none)"));
  BOOST_TEST(r.header("Content-Type").value_or("") == "application/json");
  BOOST_TEST(r.header("webhook-id").value_or("") == rc.event_id);
  if (parsed)
    BOOST_TEST(r.header("webhook-timestamp").value_or("") == parsed->t);
  BOOST_TEST(json_str(rc.envelope, "object") == "event");
  BOOST_TEST(is_iso8601_ms(json_str(rc.envelope, "created_at")), json_str(rc.envelope, "created_at"));
  BOOST_TEST(json_at(rc.envelope, "data") != nullptr);
}

// GET /v1/events with `query`; the list.
json::value events_list(http_client& c, const std::string& key, const std::string& query = "") {
  auto r = c.get("/v1/events" + (query.empty() ? "" : "?" + query), with_key(key));
  BOOST_TEST_REQUIRE(r.status == 200, "GET /v1/events?" << query << " -> " << r.summary());
  return r.json();
}

} // namespace

BOOST_FIXTURE_TEST_CASE(image_completed_arrives_signed_with_every_header, short_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto created = create_endpoint(c, t.write.key, hooks->url());
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  auto endpoint = created.json();
  auto endpoint_id = json_str(endpoint, "id");
  auto secret = json_str(endpoint, "secret");
  BOOST_TEST(endpoint_id.rfind("we_", 0) == 0, endpoint_id);
  BOOST_TEST(json_str(endpoint, "object") == "webhook_endpoint");
  BOOST_TEST(json_str(endpoint, "url") == hooks->url());
  BOOST_TEST((strings_of(endpoint, "events") == v1_event_types), "[\"*\"] lists the eight v1.0 types");
  BOOST_TEST(json_size(endpoint, "events") == 8);
  BOOST_TEST(secret.rfind("whsec_", 0) == 0, secret);
  BOOST_TEST(json_str(endpoint, "secret_preview").rfind("whsec_", 0) == 0);
  BOOST_TEST(json_str(endpoint, "secret_preview") != secret);
  BOOST_TEST(json_bool(endpoint, "is_active") == true);
  BOOST_TEST(json_int(endpoint, "consecutive_failures") == 0);
  BOOST_TEST(json_at(endpoint, "metadata") != nullptr);
  BOOST_TEST(json_is_null(get_endpoint(c, t.read.key, endpoint_id), "secret"), "the secret is never readable again");

  auto job = create_image_ok(c, t.write.key, image_body("a signed completion"));
  auto job_id = json_str(job, "id");
  auto done = wait_terminal(c, t.read.key, job_id);
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);

  auto rc = wait_for_receipt(*hooks, job_event("image.completed", job_id), 10s);
  BOOST_REQUIRE_MESSAGE(rc.has_value(), "no image.completed for " << job_id << " within 10 s; got "
                                                                 << hooks->request_count() << " requests");
  expect_signed_delivery(*rc, secret, json_str(done, "api_version"));
  BOOST_TEST(svc_signature_valid(rc->request, secret + "x") == false, "a wrong key does not verify");
  BOOST_TEST(json_str(rc->envelope, "type") == "image.completed");
  BOOST_TEST(json_bool(rc->envelope, "synthetic") == false);
  auto record = get_image(c, t.read.key, job_id);
  auto& data = *json_at(rc->envelope, "data");
  BOOST_TEST(json_str(data, "id") == job_id);
  BOOST_TEST(json_str(data, "object") == "image");
  BOOST_TEST(json_str(data, "status") == "succeeded");
  BOOST_TEST(json_size(data, "output_urls") >= 1);
  BOOST_TEST(*json_at(data, "output_urls") == *json_at(record, "output_urls"));
  BOOST_TEST(data == record, "data is GET /v1/images/{id}:\n" << json::serialize(data) << "\n" << json::serialize(record));

  // One succeeded row for the event.
  auto rows = wait_deliveries(
    c, t.read.key, endpoint_id, [](auto& rows) { return !rows.empty(); }, 10s);
  BOOST_REQUIRE_EQUAL(rows.size(), 1u);
  auto& row = rows[0];
  BOOST_TEST(json_str(row, "id").rfind("dlv_", 0) == 0, json_str(row, "id"));
  BOOST_TEST(json_str(row, "object") == "webhook_delivery");
  BOOST_TEST(json_str(row, "endpoint_id") == endpoint_id);
  BOOST_TEST(json_str(row, "event_id") == rc->event_id);
  BOOST_TEST(json_str(row, "event_type") == "image.completed");
  BOOST_TEST(json_int(row, "attempt") == 1);
  BOOST_TEST(json_str(row, "status") == "succeeded");
  BOOST_TEST(json_int(row, "response_status") == 200);
  BOOST_TEST(json_is_null(row, "error_class"));
  BOOST_TEST(json_bool(row, "is_terminal") == true);
  BOOST_TEST(json_bool(row, "is_dead_letter") == false);
  BOOST_TEST(json_is_null(row, "next_attempt_at"));

  // The feed shows the same envelope the receiver got.
  auto events = events_list(c, t.read.key);
  BOOST_REQUIRE_EQUAL(json_size(events, "data"), 1);
  BOOST_TEST(*json_at(events, "data.0") == rc->envelope);
  auto one = c.get("/v1/events/" + rc->event_id, with_key(t.read.key));
  BOOST_TEST(one.status == 200, one.summary());
  BOOST_TEST(one.json() == rc->envelope);
  auto after = get_endpoint(c, t.read.key, endpoint_id);
  BOOST_TEST(json_int(after, "consecutive_failures") == 0);
  BOOST_TEST(is_iso8601_ms(json_str(after, "last_success_at")), json_str(after, "last_success_at"));
}

BOOST_FIXTURE_TEST_CASE(cancelled_job_and_the_events_feed, slow_renders) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto secret = json_str(endpoint, "secret");

  // A: cancelled while processing; B and C complete. A test fire in between
  // is delivered but never listed.
  auto a = json_str(create_image_ok(c, t.write.key, image_body("to be cancelled")), "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, a, "processing"), "status") == "processing");
  auto cancel = c.request("POST", "/v1/images/" + a + "/cancel", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(cancel.status == 200, cancel.summary());
  auto cancelled = wait_for_receipt(*hooks, job_event("image.cancelled", a), 10s);
  BOOST_REQUIRE_MESSAGE(cancelled.has_value(), "no image.cancelled for " << a);
  auto record_a = get_image(c, t.read.key, a);
  expect_signed_delivery(*cancelled, secret, json_str(record_a, "api_version"));
  BOOST_TEST(json_str(cancelled->envelope, "data.status") == "cancelled");
  BOOST_TEST(*json_at(cancelled->envelope, "data") == record_a);
  BOOST_TEST(json_bool(cancelled->envelope, "synthetic") == false);

  auto test_event = test_fire_ok(c, t.write.key, json_str(endpoint, "id"), "image.failed");
  auto b = json_str(create_image_ok(c, t.write.key, image_body("b")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, b), "status") == "succeeded");
  auto cc = json_str(create_image_ok(c, t.write.key, image_body("c")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, cc), "status") == "succeeded");
  auto got_b = wait_for_receipt(*hooks, job_event("image.completed", b), 10s);
  auto got_c = wait_for_receipt(*hooks, job_event("image.completed", cc), 10s);
  BOOST_REQUIRE(got_b.has_value());
  BOOST_REQUIRE(got_c.has_value());
  BOOST_REQUIRE(wait_for_receipt(*hooks, event_is(test_event), 10s).has_value());

  // Newest first; the test fire is not listed.
  auto all = events_list(c, t.read.key);
  std::vector<std::string> expected{got_c->event_id, got_b->event_id, cancelled->event_id};
  BOOST_TEST(data_strings(all) == expected, boost::json::serialize(all));
  BOOST_TEST(json_bool(all, "has_more") == false);
  BOOST_TEST(json_str(all, "object") == "list");
  for (long i = 0; i + 1 < json_size(all, "data"); ++i)
    BOOST_TEST(parse_iso8601_ms(json_str(all, "data." + std::to_string(i) + ".created_at"))
               >= parse_iso8601_ms(json_str(all, "data." + std::to_string(i + 1) + ".created_at")));
  auto completed = events_list(c, t.read.key, "type=image.completed");
  BOOST_TEST((data_strings(completed) == std::vector<std::string>{got_c->event_id, got_b->event_id}));
  auto only_cancelled = events_list(c, t.read.key, "type=image.cancelled");
  BOOST_TEST((data_strings(only_cancelled) == std::vector<std::string>{cancelled->event_id}));
  BOOST_TEST(data_strings(events_list(c, t.read.key, "type=video.completed")).empty());
  auto bad = c.get("/v1/events?type=image.exploded", with_key(t.read.key));
  BOOST_TEST(is_error(bad, 400, "invalid_parameter"), bad.summary());

  // Paging the feed one by one walks the same ids.
  std::vector<std::string> walked;
  std::string after;
  for (int i = 0; i < 10; ++i) {
    auto page = events_list(c, t.read.key, "limit=1" + (after.empty() ? "" : "&starting_after=" + after));
    auto ids = data_strings(page);
    if (ids.empty())
      break;
    walked.insert(walked.end(), ids.begin(), ids.end());
    after = ids.back();
    if (json_bool(page, "has_more") != true)
      break;
  }
  BOOST_TEST(walked == expected);
  auto missing = c.get("/v1/events/" + test_event, with_key(t.read.key));
  BOOST_TEST(is_error(missing, 404, "resource_not_found"), "a test fire is no event of the feed: " << missing.summary());
}

BOOST_FIXTURE_TEST_CASE(test_fires_are_synthetic_and_the_deliveries_list_pages, short_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url(), {"image.completed"});
  auto id = json_str(endpoint, "id");
  auto secret = json_str(endpoint, "secret");
  BOOST_TEST((strings_of(endpoint, "events") == std::set<std::string>{"image.completed"}));

  auto fire = test_fire(c, t.write.key, id, "image.completed");
  BOOST_REQUIRE_MESSAGE(fire.status == 202, fire.summary());
  auto body = fire.json();
  BOOST_TEST(json_str(body, "object") == "webhook_test_fire");
  BOOST_TEST(json_str(body, "endpoint_id") == id);
  BOOST_TEST(json_str(body, "event_id").rfind("evt_", 0) == 0);
  BOOST_TEST(json_bool(body, "enqueued") == true);
  auto event_id = json_str(body, "event_id");
  auto rc = wait_for_receipt(*hooks, event_is(event_id), 10s);
  BOOST_REQUIRE_MESSAGE(rc.has_value(), "the test fire did not arrive");
  BOOST_TEST(json_bool(rc->envelope, "synthetic") == true);
  BOOST_TEST(json_at(rc->envelope, "data.synthetic") == nullptr, "synthetic sits on the envelope only");
  BOOST_TEST(rc->type == "image.completed");
  auto team = c.get("/v1/team", with_key(t.read.key)).json();
  expect_signed_delivery(*rc, secret, json_str(team, "default_api_version"));

  // A type the endpoint does not subscribe to is still sent; an unknown type is refused.
  auto other = test_fire_ok(c, t.write.key, id, "usage.balance_low");
  BOOST_TEST(wait_for_receipt(*hooks, event_is(other), 10s).has_value(), "an unsubscribed type is still sent");
  auto unknown = test_fire(c, t.write.key, id, "image.exploded");
  BOOST_TEST(is_error(unknown, 400, "invalid_parameter"), unknown.summary());
  std::vector<std::string> fired{event_id, other};
  for (int i = 0; i < 3; ++i)
    fired.push_back(test_fire_ok(c, t.write.key, id, "image.cancelled"));
  for (auto& e : fired)
    BOOST_TEST(wait_for_receipt(*hooks, event_is(e), 10s).has_value(), e);
  BOOST_TEST(json_size(events_list(c, t.read.key), "data") == 0, "test fires are not in GET /v1/events");

  auto rows = wait_deliveries(
    c, t.read.key, id, [&](auto& rows) { return rows.size() >= fired.size(); }, 10s);
  BOOST_REQUIRE_EQUAL(rows.size(), fired.size());
  std::set<std::string> row_events;
  for (auto& row : rows) {
    BOOST_TEST_CONTEXT(json::serialize(row)) {
      row_events.insert(json_str(row, "event_id"));
      BOOST_TEST(json_str(row, "status") == "succeeded");
      BOOST_TEST(json_int(row, "response_status") == 200);
      BOOST_TEST(json_bool(row, "is_terminal") == true);
      BOOST_TEST(json_bool(row, "is_dead_letter") == false);
      BOOST_TEST(json_int(row, "attempt") == 1);
    }
  }
  BOOST_TEST((row_events == std::set<std::string>(fired.begin(), fired.end())));
  for (std::size_t i = 0; i + 1 < rows.size(); ++i)
    BOOST_TEST(json_str(rows[i], "id") > json_str(rows[i + 1], "id"), "newest first");

  // limit=1 with starting_after walks every row exactly once.
  std::vector<std::string> walked;
  std::string after;
  for (std::size_t i = 0; i < rows.size() + 2; ++i) {
    auto page = get_deliveries(c, t.read.key, id, "limit=1" + (after.empty() ? "" : "&starting_after=" + after));
    BOOST_REQUIRE_MESSAGE(page.status == 200, page.summary());
    auto list = page.json();
    BOOST_TEST(json_str(list, "object") == "list");
    BOOST_TEST(json_size(list, "data") <= 1);
    if (json_size(list, "data") != 1)
      break;
    walked.push_back(json_str(list, "data.0.id"));
    after = walked.back();
    if (json_bool(list, "has_more") != true)
      break;
  }
  std::vector<std::string> all_ids;
  for (auto& row : rows)
    all_ids.push_back(json_str(row, "id"));
  BOOST_TEST(walked == all_ids);
  for (std::string limit : {"0", "101", "-1", "x"}) {
    auto r = get_deliveries(c, t.read.key, id, "limit=" + limit);
    BOOST_TEST(is_error(r, 400, "invalid_parameter"), "limit=" << limit << " -> " << r.summary());
  }
  BOOST_TEST(get_deliveries(c, t.read.key, id, "limit=100").status == 200);
  auto foreign = create_webhook_team(*this);
  auto hidden = get_deliveries(c, foreign.read.key, id);
  BOOST_TEST(is_error(hidden, 404, "resource_not_found"), hidden.summary());
}

BOOST_FIXTURE_TEST_CASE(after_rotation_the_new_secret_signs_and_the_old_does_not, short_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto id = json_str(endpoint, "id");
  auto old_secret = json_str(endpoint, "secret");
  auto before = wait_for_receipt(*hooks, event_is(test_fire_ok(c, t.write.key, id)), 10s);
  BOOST_REQUIRE(before.has_value());
  BOOST_TEST(svc_signature_valid(before->request, old_secret));

  auto rotated = c.request("POST", "/v1/webhook_endpoints/" + id + "/rotate_secret", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(rotated.status == 200, rotated.summary());
  auto new_secret = json_str(rotated.json(), "secret");
  BOOST_TEST(new_secret.rfind("whsec_", 0) == 0, new_secret);
  BOOST_TEST(new_secret != old_secret);
  BOOST_TEST(json_str(rotated.json(), "id") == id);
  BOOST_TEST(json_is_null(get_endpoint(c, t.read.key, id), "secret"));

  auto job = json_str(create_image_ok(c, t.write.key, image_body("after rotation")), "id");
  auto fired = test_fire_ok(c, t.write.key, id);
  for (auto& match : {event_is(fired), job_event("image.completed", job)}) {
    auto rc = wait_for_receipt(*hooks, match, 10s);
    BOOST_REQUIRE(rc.has_value());
    BOOST_TEST_CONTEXT(rc->type << " " << rc->event_id) {
      BOOST_TEST(svc_signature_valid(rc->request, new_secret), "signed with the new secret");
      BOOST_TEST(standard_signature_valid(rc->request, new_secret));
      BOOST_TEST(!svc_signature_valid(rc->request, old_secret), "never with the old one");
      BOOST_TEST(!standard_signature_valid(rc->request, old_secret));
      auto sig = rc->request.header("Svc-Webhook-Signature").value_or("");
      BOOST_TEST(parse_svc_signature(sig).has_value(), "one v1 only: " << sig);
    }
  }
}

BOOST_FIXTURE_TEST_CASE(balance_low_fires_once_per_debounce_hour, debounce_1h) {
  auto t = create_webhook_team(*this, 1000);
  auto c = api();
  auto endpoint = create_endpoint_ok(c, t.write.key, hooks->url());
  auto secret = json_str(endpoint, "secret");
  auto estimate = c.request("POST", "/v1/images/estimate", with_key(t.write.key), json::serialize(image_body()));
  BOOST_REQUIRE_MESSAGE(estimate.status == 200, estimate.summary());
  auto cost = json_int(estimate.json(), "credits").value_or(0);
  BOOST_REQUIRE(cost > 0);
  auto threshold = 1000 - cost;
  auto patched = c.request("PATCH", "/v1/team", with_key(t.full.key),
                           json::serialize(json::object{{"balance_low_threshold", threshold}}));
  BOOST_REQUIRE_MESSAGE(patched.status == 200, patched.summary());
  BOOST_TEST(json_int(patched.json(), "balance_low_threshold") == threshold);

  // 1000 -> threshold: crosses. threshold -> below: stays below. Topped up
  // above and crossing again: within the hour, so still one event.
  std::vector<std::string> jobs;
  jobs.push_back(json_str(create_image_ok(c, t.write.key, image_body()), "id"));
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, jobs.back()), "status") == "succeeded");
  jobs.push_back(json_str(create_image_ok(c, t.write.key, image_body()), "id"));
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, jobs.back()), "status") == "succeeded");
  ctl_ok({"credits", "add", "--team", t.id, "--amount", std::to_string(2 * cost)});
  BOOST_TEST(get_balance(c, t.read.key).available == threshold + cost);
  jobs.push_back(json_str(create_image_ok(c, t.write.key, image_body()), "id"));
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, jobs.back()), "status") == "succeeded");
  for (auto& j : jobs)
    BOOST_REQUIRE_MESSAGE(wait_for_receipt(*hooks, job_event("image.completed", j), 10s).has_value(), j);

  // Events are committed with the hold, before the 201: the feed is complete now.
  auto low = events_list(c, t.read.key, "type=usage.balance_low");
  BOOST_REQUIRE_EQUAL(json_size(low, "data"), 1);
  auto low_id = json_str(low, "data.0.id");
  auto rc = wait_for_receipt(*hooks, event_is(low_id), 10s);
  BOOST_REQUIRE(rc.has_value());
  BOOST_TEST(receipts_of_type(*hooks, "usage.balance_low").size() == 1u, "exactly one usage.balance_low");
  auto team = c.get("/v1/team", with_key(t.read.key)).json();
  expect_signed_delivery(*rc, secret, json_str(team, "default_api_version"));
  BOOST_TEST(json_bool(rc->envelope, "synthetic") == false);
  // data is the balance record as it stood when the first create crossed.
  auto& data = *json_at(rc->envelope, "data");
  BOOST_TEST(json_str(data, "object") == "balance");
  BOOST_TEST(json_int(data, "available") == threshold);
  BOOST_TEST(json_int(data, "held") == cost);
  BOOST_TEST(json_int(data, "balance_low_threshold") == threshold);
  auto balance = c.get("/v1/balance", with_key(t.read.key)).json();
  std::set<std::string> data_keys, balance_keys;
  for (auto& kv : data.as_object())
    data_keys.insert(std::string{kv.key()});
  for (auto& kv : balance.as_object())
    balance_keys.insert(std::string{kv.key()});
  BOOST_TEST((data_keys == balance_keys), "data has the shape of GET /v1/balance: " << json::serialize(balance));
}

BOOST_FIXTURE_TEST_CASE(balance_low_fires_again_after_a_short_debounce, debounce_300ms) {
  auto t = create_webhook_team(*this, 1000);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url(), {"usage.balance_low"});
  auto estimate = c.request("POST", "/v1/images/estimate", with_key(t.write.key), json::serialize(image_body()));
  auto cost = json_int(estimate.json(), "credits").value_or(0);
  BOOST_REQUIRE(cost > 0);
  auto threshold = 1000 - cost;
  BOOST_REQUIRE(c.request("PATCH", "/v1/team", with_key(t.full.key),
                          json::serialize(json::object{{"balance_low_threshold", threshold}}))
                  .status
                == 200);

  auto first_job = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  auto first = wait_for_receipt(*hooks, type_is("usage.balance_low"), 10s);
  BOOST_REQUIRE_MESSAGE(first.has_value(), "no usage.balance_low after crossing the threshold");
  BOOST_TEST(json_int(first->envelope, "data.available") == threshold);
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, first_job), "status") == "succeeded");

  ctl_ok({"credits", "add", "--team", t.id, "--amount", std::to_string(cost)});
  BOOST_TEST(get_balance(c, t.read.key).available == threshold + cost);
  auto first_at = parse_iso8601_ms(json_str(first->envelope, "created_at"));
  BOOST_REQUIRE(wait_until(
    [&] {
      auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch())
                   .count();
      return now > first_at + 400;
    },
    5s));
  auto second_job = json_str(create_image_ok(c, t.write.key, image_body()), "id");
  BOOST_TEST(wait_for_receipts(*hooks, 2, type_is("usage.balance_low"), 10s),
             "a second usage.balance_low once the debounce passed");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, second_job), "status") == "succeeded");
  auto low = receipts_of_type(*hooks, "usage.balance_low");
  BOOST_REQUIRE_EQUAL(low.size(), 2u);
  BOOST_TEST(low[0].event_id != low[1].event_id);
  BOOST_TEST(json_int(low[1].envelope, "data.available") == threshold);
  BOOST_TEST(json_size(events_list(c, t.read.key, "type=usage.balance_low"), "data") == 2);
}

BOOST_AUTO_TEST_SUITE_END()
