// Webhooks in a cluster of three svcd nodes with etcd (mutual TLS), the team
// held by n3 and every call made through n1 or n2: an endpoint created
// through a non-owner reads the same through every node and lives only on
// its owner, whose endpoint actor delivers an image's event signed with the
// secret the create answered to an HTTPS receiver of a test CA; the event and
// its delivery rows read the same through every node; a secret rotated
// through a non-owner signs the next delivery and its grace ends on time; a
// receiver that answers 500 is retried on the configured short schedule.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/cluster_fixture.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_cluster_webhooks)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

// Retries every 200..800 ms and a 3 s secret grace, so both run out within a test.
struct webhook_cluster : cluster_fixture {
  webhook_cluster()
    : cluster_fixture(3, webhook_svcd_args({"--retry-schedule", "200ms,400ms,600ms,800ms", "--secret-grace", "3s"})) {}

  static constexpr std::size_t owner = 2; ///< n3 holds the team; n1 and n2 only relay

  struct made_endpoint {
    std::string key;    ///< a full-scope key of a team `owner` holds
    std::string id;     ///< the endpoint for `hooks`
    std::string secret; ///< as its create answered
  };
  /// A team on `owner` and an endpoint of it for `hooks`, created through node `via`.
  made_endpoint endpoint_through(std::size_t via) const {
    auto key = team_on(owner).second;
    auto c = api(via);
    auto endpoint = create_endpoint_ok(c, key, hooks->url());
    return {key, json_str(endpoint, "id"), json_str(endpoint, "secret")};
  }

  /// GET `target` with `key` through node `i`; its 200 body, serialised.
  std::string read(std::size_t i, const std::string& key, const std::string& target) const {
    auto r = api(i).get(target, with_key(key));
    BOOST_TEST_REQUIRE(r.status == 200, ids[i] << " GET " << target << ": " << r.summary());
    return r.body;
  }

  /// Reads `target` through every node and checks each answer equals n1's; returns it parsed.
  json::value same_everywhere(const std::string& key, const std::string& target) const {
    auto first = read(0, key, target);
    for (std::size_t i = 1; i < nodes.size(); ++i)
      BOOST_TEST(read(i, key, target) == first, ids[i] << " and n1 differ on " << target);
    return json::parse(first);
  }

  /// Whether node `i`'s admin `path` (a view of its own store or actors) names `id`.
  bool admin_names(std::size_t i, const std::string& path, const std::string& id) const {
    auto r = admin(i).get(path, admin_auth(i));
    BOOST_TEST_REQUIRE(r.status == 200, ids[i] << " GET " << path << ": " << r.summary());
    return r.body.find(id) != std::string::npos;
  }

  std::unique_ptr<svc::receiver::https_receiver> hooks = make_trusted_receiver();
};

bool has_row(const std::vector<json::value>& rows, const std::string& event_id, const std::string& status) {
  for (auto& row : rows)
    if (json_str(row, "event_id") == event_id && json_str(row, "status") == status)
      return true;
  return false;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(cluster_webhooks, webhook_cluster)

BOOST_AUTO_TEST_CASE(an_endpoint_made_through_a_non_owner_gets_the_owners_signed_event) {
  auto [key, id, secret] = endpoint_through(0);
  auto n1 = api(0);
  auto n2 = api(1);
  BOOST_TEST_REQUIRE(secret.rfind("whsec_", 0) == 0, secret);

  auto record = same_everywhere(key, "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_is_null(record, "secret"), "the secret is shown once, by the create");
  BOOST_TEST(json_str(same_everywhere(key, "/v1/webhook_endpoints"), "data.0.id") == id);
  // Only the owner's store holds the endpoint, and only there does its actor run.
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    BOOST_TEST(admin_names(i, "/admin/overview", id) == (i == owner), ids[i] << "'s store and " << id);
    BOOST_TEST(admin_names(i, "/admin/actors?kind=endpoint", id) == (i == owner), ids[i] << "'s actors and " << id);
  }

  auto job = json_str(create_image_ok(n2, key, image_body("through n2")), "id");
  auto rc = wait_for_receipt(*hooks, job_event("image.completed", job), 15s);
  BOOST_TEST_REQUIRE(rc.has_value(), "no image.completed for " << job << " within 15 s");
  BOOST_TEST(svc_signature_valid(rc->request, secret), rc->request.header("Svc-Webhook-Signature").value_or("none"));
  BOOST_TEST(standard_signature_valid(rc->request, secret));
  BOOST_TEST(rc->request.header("Svc-Event-Id").value_or("") == rc->event_id);

  // The owner writes the delivery row and the endpoint's success after the
  // receiver's answer; once n1 shows both, every node must show the same.
  auto rows = wait_deliveries(n1, key, id, [&](auto& r) { return has_row(r, rc->event_id, "succeeded"); }, 10s);
  BOOST_TEST_REQUIRE(has_row(rows, rc->event_id, "succeeded"), "no succeeded delivery row for " << rc->event_id);
  // Structured bindings are captured as named copies: C++17 cannot capture them (clang refuses).
  BOOST_TEST_REQUIRE(wait_until([&, key = key, id = id] { return !json_is_null(get_endpoint(n1, key, id), "last_success_at"); }, 10s));
  same_everywhere(key, "/v1/webhook_endpoints/" + id + "/deliveries");
  record = same_everywhere(key, "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_int(record, "consecutive_failures") == 0);
  // The events feed holds the envelope exactly as the receiver got it.
  auto event = same_everywhere(key, "/v1/events/" + rc->event_id);
  BOOST_TEST(event == rc->envelope, json::serialize(event) << " vs the received " << rc->request.body);
  auto feed = same_everywhere(key, "/v1/events?type=image.completed");
  BOOST_TEST(json_str(feed, "data.0.id") == rc->event_id);
}

BOOST_AUTO_TEST_CASE(a_secret_rotated_through_a_non_owner_signs_the_next_delivery) {
  auto [key, id, old_secret] = endpoint_through(0);
  auto n1 = api(0);
  auto n2 = api(1);

  auto rotated = n2.request("POST", "/v1/webhook_endpoints/" + id + "/rotate_secret", with_key(key));
  BOOST_TEST_REQUIRE(rotated.status == 200, rotated.summary());
  auto new_secret = json_str(rotated.json(), "secret");
  BOOST_TEST_REQUIRE(new_secret.rfind("whsec_", 0) == 0, new_secret);
  BOOST_TEST(new_secret != old_secret);
  auto record = same_everywhere(key, "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_is_null(record, "secret"));
  BOOST_TEST(json_str(record, "previous_secret_expires_at") == json_str(rotated.json(), "previous_secret_expires_at"));

  auto job = json_str(create_image_ok(n1, key, image_body("after rotation")), "id");
  auto fired = test_fire_ok(n2, key, id);
  for (auto& match : {event_is(fired), job_event("image.completed", job)}) {
    auto rc = wait_for_receipt(*hooks, match, 15s);
    BOOST_TEST_REQUIRE(rc.has_value());
    BOOST_TEST_CONTEXT(rc->type << " " << rc->event_id) {
      BOOST_TEST(svc_signature_valid(rc->request, new_secret), "signed with the secret the rotation answered");
      BOOST_TEST(!svc_signature_valid(rc->request, old_secret), "never with the previous one");
    }
  }
  // The owner's grace timer (--secret-grace 3s) ends the previous secret; every node shows it gone.
  BOOST_TEST(wait_until([&, key = key, id = id] { return json_is_null(get_endpoint(n1, key, id), "previous_secret_expires_at"); }, 10s),
             "the previous secret outlived its 3 s grace");
  record = same_everywhere(key, "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_is_null(record, "previous_secret_expires_at"));
}

BOOST_AUTO_TEST_CASE(a_failing_receiver_is_retried_by_the_owner_on_the_short_schedule) {
  auto [key, id, secret] = endpoint_through(1);
  auto n1 = api(0);
  auto answered = std::make_shared<std::atomic<int>>(0); // the receiver's threads outlive this scope
  hooks->set_handler([answered](const svc::receiver::received_request&) {
    svc::receiver::reply r;
    r.status = ++*answered <= 2 ? 500 : 200; // the third attempt succeeds
    return r;
  });
  auto fired = test_fire_ok(n1, key, id);

  BOOST_TEST_REQUIRE(wait_for_receipts(*hooks, 3, event_is(fired), 10s), "three attempts of " << fired);
  auto attempts = receipts_of(*hooks);
  BOOST_TEST_REQUIRE(attempts.size() == 3u);
  for (auto& rc : attempts)
    BOOST_TEST(svc_signature_valid(rc.request, secret), "every attempt is signed");
  // 200 ms, then 400 ms between attempts: the configured schedule, not the contract's 5 s and 30 s.
  auto gap = [&](std::size_t i) { return attempts[i].request.received_at - attempts[i - 1].request.received_at; };
  BOOST_TEST((gap(1) >= 150ms && gap(1) < 3s), "first retry after " << (gap(1) / 1ms) << " ms");
  BOOST_TEST((gap(2) >= 350ms && gap(2) < 3s), "second retry after " << (gap(2) / 1ms) << " ms");

  auto rows = wait_deliveries(n1, key, id, [&](auto& r) { return has_row(r, fired, "succeeded"); }, 10s);
  BOOST_TEST_REQUIRE(rows.size() == 3u, "delivery rows: " << rows.size());
  BOOST_TEST_REQUIRE(wait_until([&, key = key, id = id] { return !json_is_null(get_endpoint(n1, key, id), "last_success_at"); }, 10s));
  auto page = same_everywhere(key, "/v1/webhook_endpoints/" + id + "/deliveries");
  // Newest first: attempts 3, 2, 1; the two 500s are failed http_5xx rows.
  for (int i = 0; i < 3; ++i) {
    auto row = "data." + std::to_string(i);
    BOOST_TEST(json_int(page, row + ".attempt") == 3 - i);
    BOOST_TEST(json_str(page, row + ".status") == (i == 0 ? "succeeded" : "failed"));
    BOOST_TEST(json_int(page, row + ".response_status") == (i == 0 ? 200 : 500));
  }
  BOOST_TEST(json_str(page, "data.1.error_class") == "http_5xx");
  auto record = same_everywhere(key, "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_int(record, "consecutive_failures") == 0, "the success reset the count");
  BOOST_TEST(!json_is_null(record, "last_failure_at"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
