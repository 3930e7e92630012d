// A request's correlation travels with the work it starts (issue 13, logs):
// the image.completed delivery of a job created with `X-Request-Id` carries
// that id, one created with a `traceparent` carries a child span of its trace
// (and Svc's own `req_` id), a test fire carries its request's id, so does
// the usage.balance_low event of the create that crossed the threshold, and a
// retry made after SIGKILL and a restart still carries it, since it is stored
// with the event, not held in memory.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_request_id)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

const std::string trace = "4bf92f3577b34da6a3ce929d0e0e4736";
const std::string parent_span = "00f067aa0ba902b7";

// The image.completed delivery of job `id`.
receipt completed_delivery_of(const svc::receiver::https_receiver& hooks, const std::string& id) {
  auto got = wait_for_receipt(
    hooks, [&](const receipt& rc) { return rc.type == "image.completed" && json_str(rc.envelope, "data.id") == id; },
    30s);
  BOOST_REQUIRE_MESSAGE(got.has_value(), "no image.completed delivery of " << id);
  return *got;
}

bool lower_hex(const std::string& s) { return s.find_first_not_of("0123456789abcdef") == std::string::npos; }

// Retries 2 s apart, so attempt 2 is still pending when svcd is killed.
struct slow_retries : webhook_fixture {
  slow_retries() : webhook_fixture({"--retry-schedule", "2s,2s,2s,2s"}) {}
};

reply status_reply(unsigned status) {
  reply r;
  r.status = status;
  return r;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_jobs_delivery_carries_the_clients_request_id, webhook_fixture) {
  auto t = create_webhook_team(*this);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url());
  auto job = create_image_ok(c, t.write.key, image_body(), {{"X-Request-Id", "client-abc"}});
  auto delivery = completed_delivery_of(*hooks, json_str(job, "id"));
  BOOST_TEST(delivery.request.header("X-Request-Id").value_or("") == "client-abc");
  BOOST_TEST(!delivery.request.header("traceparent").has_value(), "the request had no trace");
}

BOOST_FIXTURE_TEST_CASE(a_jobs_delivery_continues_the_requests_trace_under_svcs_own_id, webhook_fixture) {
  auto t = create_webhook_team(*this);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url());
  auto traced = header_map{{"traceparent", "00-" + trace + "-" + parent_span + "-01"}};
  auto created = create_image(c, t.write.key, image_body(), traced);
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  auto delivery = completed_delivery_of(*hooks, json_str(created.json(), "id"));
  BOOST_TEST(delivery.request.header("X-Request-Id").value_or("") == created.header_or_empty("Svc-Request-Id"),
             "without an id of the client's, Svc's own travels");
  auto tp = delivery.request.header("traceparent").value_or("");
  BOOST_REQUIRE_MESSAGE(tp.size() == 55u, "traceparent: " << tp);
  BOOST_TEST(tp.substr(0, 36) == "00-" + trace + "-", "the same trace, version 00");
  auto span = tp.substr(36, 16);
  BOOST_TEST(lower_hex(span));
  BOOST_TEST(span != parent_span, "the delivery is a span of its own");
  BOOST_TEST(span != std::string(16, '0'));
  BOOST_TEST(tp.substr(52) == "-01", "the flags are kept");
}

BOOST_FIXTURE_TEST_CASE(a_test_fire_carries_its_requests_id_and_trace, webhook_fixture) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto endpoint_id = json_str(create_endpoint_ok(c, t.write.key, hooks->url()), "id");
  auto event = test_fire_ok(c, t.write.key, endpoint_id, "image.completed",
                            {{"X-Request-Id", "fire-1"}, {"traceparent", "00-" + trace + "-" + parent_span + "-00"}});
  auto got = wait_for_receipt(*hooks, event_is(event), 30s);
  BOOST_REQUIRE(got.has_value());
  BOOST_TEST(got->request.header("X-Request-Id").value_or("") == "fire-1");
  auto tp = got->request.header("traceparent").value_or("");
  BOOST_TEST(tp.substr(0, 36) == "00-" + trace + "-");
  BOOST_TEST(tp.substr(52) == "-00");
}

// The create whose hold takes the balance down to the threshold caused the event.
BOOST_FIXTURE_TEST_CASE(the_balance_low_event_of_a_create_carries_its_request_id, webhook_fixture) {
  auto t = create_webhook_team(*this, 1000);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url());
  auto estimate = c.request("POST", "/v1/images/estimate", with_key(t.write.key), boost::json::serialize(image_body()));
  BOOST_REQUIRE_MESSAGE(estimate.status == 200, estimate.summary());
  auto cost = json_int(estimate.json(), "credits").value_or(0);
  BOOST_REQUIRE(cost > 0);
  auto patched = c.request("PATCH", "/v1/team", with_key(t.full.key),
                           boost::json::serialize(boost::json::object{{"balance_low_threshold", 1000 - cost}}));
  BOOST_REQUIRE_MESSAGE(patched.status == 200, patched.summary());
  create_image_ok(c, t.write.key, image_body(), {{"X-Request-Id", "client-low"}});
  auto low = wait_for_receipt(*hooks, type_is("usage.balance_low"), 30s);
  BOOST_REQUIRE(low.has_value());
  BOOST_TEST(low->request.header("X-Request-Id").value_or("") == "client-low");
}

BOOST_FIXTURE_TEST_CASE(an_invalid_request_id_is_not_passed_on, webhook_fixture) {
  auto t = create_webhook_team(*this);
  auto c = api();
  create_endpoint_ok(c, t.write.key, hooks->url());
  auto created = create_image(c, t.write.key, image_body(), {{"X-Request-Id", "has space"}});
  BOOST_REQUIRE_MESSAGE(created.status == 201, created.summary());
  auto delivery = completed_delivery_of(*hooks, json_str(created.json(), "id"));
  BOOST_TEST(delivery.request.header("X-Request-Id").value_or("") == created.header_or_empty("Svc-Request-Id"));
}

BOOST_FIXTURE_TEST_CASE(a_retry_after_sigkill_and_restart_still_carries_the_request_id, slow_retries) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto failing = std::make_shared<std::atomic<bool>>(true); // shared with the receiver's threads
  hooks->set_handler([failing](const received_request&) { return status_reply(*failing ? 500 : 200); });
  auto endpoint_id = json_str(create_endpoint_ok(c, t.write.key, hooks->url()), "id");
  auto id = json_str(create_image_ok(c, t.write.key, image_body(), {{"X-Request-Id", "client-restart"}}), "id");
  auto first = completed_delivery_of(*hooks, id);
  BOOST_TEST(first.request.header("X-Request-Id").value_or("") == "client-restart");
  auto rows = wait_deliveries(
    c, t.read.key, endpoint_id, [](auto& rows) { return !rows.empty(); }, 10s);
  BOOST_REQUIRE(!rows.empty());
  BOOST_REQUIRE_MESSAGE(parse_iso8601_ms(json_str(rows[0], "next_attempt_at")) > 0, "attempt 2 is pending");
  svcd.kill9();
  BOOST_REQUIRE_EQUAL(receipts_of_type(*hooks, "image.completed").size(), 1u);

  *failing = false;
  hooks->clear();
  svcd.start();
  auto retry = completed_delivery_of(*hooks, id);
  BOOST_TEST(retry.request.header("X-Request-Id").value_or("") == "client-restart");
}

BOOST_AUTO_TEST_SUITE_END()
