// Webhook endpoints end to end: create (201, Location, the secret shown once,
// `["*"]` expanded, validation and the SSRF rule), idempotent create, list
// paging, get, update, rotate_secret, delete, 404 across teams, scopes, the
// deliveries list, the events feed, the shapes of test fires and replays, the
// cap on endpoints per team and the bucket replayed events are drawn from.
// The delivery of events itself is tested with the actors and the client.
#include <boost/test/unit_test.hpp>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <string>
#include <vector>

#include <boost/json.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/refused_queries.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_webhook_endpoints)

using namespace svc::e2e;
using namespace std::chrono_literals;
namespace json = boost::json;

namespace {

const std::vector<std::string> all_types{"image.completed", "image.failed",    "image.cancelled",
                                         "video.completed", "video.failed",    "video.cancelled",
                                         "usage.balance_low", "webhook.endpoint_disabled"};

// `.invalid` never resolves (RFC 2606), so nothing leaves the machine.
const std::string receiver = "https://receiver.invalid/hooks/svc";

std::string body_of(const std::string& url, json::array events = {"*"}) {
  return json::serialize(json::object{{"url", url}, {"events", std::move(events)}});
}

std::vector<std::string> strings_at(const json::value& v, const std::string& path) {
  std::vector<std::string> out;
  for (long i = 0; i < json_size(v, path); ++i)
    out.push_back(json_str(v, path + "." + std::to_string(i)));
  return out;
}

// A loopback port nobody listens on: bound, read, closed.
unsigned short closed_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  BOOST_REQUIRE(fd >= 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t len = sizeof a;
  BOOST_REQUIRE(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0);
  BOOST_REQUIRE(::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) == 0);
  ::close(fd);
  return ntohs(a.sin_port);
}

struct webhook_fixture : server_fixture {
  explicit webhook_fixture(std::vector<std::string> args = {}) : server_fixture(std::move(args)) {}

  // A team whose write buckets do not run dry in a test that makes many changes.
  team_keys roomy_team() {
    auto t = create_team_with_keys();
    for (std::string bucket : {"webhook_endpoints_post", "webhooks_test"})
      ctl_ok({"team", "limits", "--team", t.id, "--bucket", bucket, "--capacity", "1000", "--per-minute", "1000"});
    return t;
  }

  response create(http_client& c, const std::string& key, const std::string& body, header_map more = {}) {
    more["Content-Type"] = "application/json";
    return c.request("POST", "/v1/webhook_endpoints", with_key(key, std::move(more)), body);
  }

  json::value create_ok(http_client& c, const std::string& key, const std::string& url = receiver) {
    auto r = create(c, key, body_of(url));
    BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
    return r.json();
  }

  response send(http_client& c, const std::string& method, const std::string& path, const std::string& key,
                const std::string& body = {}) {
    return c.request(method, path, with_key(key, {{"Content-Type", "application/json"}}), body);
  }
};

struct three_endpoints_per_team : webhook_fixture {
  three_endpoints_per_team() : webhook_fixture({"--max-endpoints-per-team", "3"}) {}
};

struct private_receivers : webhook_fixture {
  // Attempts fail fast against a closed port: two failures disable.
  private_receivers()
    : webhook_fixture({"--webhook-allow-private", "--retry-schedule", "50ms,50ms,50ms,50ms", "--disable-failures",
                       "2"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(webhook_endpoints, webhook_fixture)

BOOST_AUTO_TEST_CASE(create_shows_the_secret_once) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = create(c, t.write.key, body_of(receiver));
  BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 10, "the webhook_endpoints_post bucket");
  auto e = r.json();
  auto id = json_str(e, "id");
  BOOST_TEST(id.rfind("we_", 0) == 0u);
  BOOST_TEST(id.size() == 29u);
  BOOST_TEST(r.header_or_empty("Location") == svcd.api_url() + "/v1/webhook_endpoints/" + id);
  BOOST_TEST(json_str(e, "object") == "webhook_endpoint");
  BOOST_TEST(json_str(e, "url") == receiver);
  BOOST_TEST(strings_at(e, "events") == all_types, "[\"*\"] expands to the eight v1.0 types");
  auto secret = json_str(e, "secret");
  BOOST_TEST(secret.rfind("whsec_", 0) == 0u);
  BOOST_TEST(secret.size() == 6u + 44u, "whsec_ + base64 of 32 bytes");
  BOOST_TEST(json_str(e, "secret_preview") == "whsec_****" + secret.substr(secret.size() - 4));
  BOOST_TEST(json_bool(e, "is_active") == true);
  BOOST_TEST(json_int(e, "consecutive_failures") == 0);
  BOOST_TEST(json_is_null(e, "last_success_at"));
  BOOST_TEST(json_is_null(e, "last_failure_at"));
  BOOST_TEST(json_is_null(e, "previous_secret_expires_at"));
  auto* metadata = json_at(e, "metadata");
  BOOST_TEST((metadata && metadata->is_object() && metadata->as_object().empty()), "metadata is {}");
  BOOST_TEST(json_str(e, "created_at") == json_str(e, "updated_at"));
  BOOST_TEST(parse_iso8601_ms(json_str(e, "created_at")) > 0);

  auto got = c.get("/v1/webhook_endpoints/" + id, with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(got.status == 200, got.summary());
  BOOST_TEST(json_is_null(got.json(), "secret"), "never readable again");
  BOOST_TEST(json_str(got.json(), "secret_preview") == json_str(e, "secret_preview"));
  BOOST_TEST(got.body.find(secret) == std::string::npos);
  auto list = c.get("/v1/webhook_endpoints", with_key(t.read.key));
  BOOST_TEST(list.body.find(secret) == std::string::npos);
  BOOST_TEST(json_is_null(list.json(), "data.0.secret"));

  auto explicit_types = create(c, t.write.key,
                               json::serialize(json::object{{"url", receiver},
                                                            {"events", {"image.failed", "usage.balance_low"}},
                                                            {"metadata", {{"env", "test"}}}}));
  BOOST_REQUIRE_MESSAGE(explicit_types.status == 201, explicit_types.summary());
  BOOST_TEST(strings_at(explicit_types.json(), "events")
             == (std::vector<std::string>{"image.failed", "usage.balance_low"}));
  BOOST_TEST(json_str(explicit_types.json(), "metadata.env") == "test");
  BOOST_TEST(json_str(explicit_types.json(), "secret") != secret);
}

BOOST_AUTO_TEST_CASE(create_refuses_bad_bodies) {
  auto t = roomy_team();
  auto c = api();
  struct {
    std::string body, code, param;
  } cases[] = {
    {R"({"url": "https://receiver.invalid/", "events": ["image.exploded"]})", "invalid_parameter", "events[0]"},
    {R"({"url": "https://receiver.invalid/", "events": ["image.expired"]})", "invalid_parameter", "events[0]"},
    {R"({"url": "https://receiver.invalid/", "events": []})", "invalid_parameter", "events"},
    {R"({"url": "https://receiver.invalid/", "events": ["*", "image.failed"]})", "invalid_parameter", "events[0]"},
    {R"({"url": "https://receiver.invalid/"})", "invalid_parameter", "events"},
    {R"({"events": ["*"]})", "invalid_parameter", "url"},
    {R"({"url": "http://receiver.invalid/", "events": ["*"]})", "invalid_parameter", "url"},
    {R"({"url": "ftp://receiver.invalid/", "events": ["*"]})", "invalid_parameter", "url"},
    {R"({"url": "https://user:pw@receiver.invalid/", "events": ["*"]})", "invalid_parameter", "url"},
    {R"({"url": "https://receiver.invalid/", "events": ["*"], "description": "x"})", "unknown_parameter",
     "description"},
    {R"({"url": "https://receiver.invalid/", "events": ["*"], "metadata": {"k": 1}})", "invalid_parameter",
     "metadata.k"},
  };
  for (auto& k : cases) {
    BOOST_TEST_CONTEXT(k.body) {
      auto r = create(c, t.write.key, k.body);
      BOOST_TEST(is_error(r, 400, k.code), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == k.param);
    }
  }
  auto not_json = create(c, t.write.key, "{url:");
  BOOST_TEST(is_error(not_json, 400, "invalid_body"), not_json.summary());
  auto list = c.get("/v1/webhook_endpoints", with_key(t.read.key)).json();
  BOOST_TEST(json_size(list, "data") == 0, "nothing was created");
}

BOOST_AUTO_TEST_CASE(private_addresses_are_refused_by_default) {
  auto t = roomy_team();
  auto c = api();
  for (std::string url : {"https://127.0.0.1/", "https://10.0.0.1/", "https://169.254.1.1/", "https://[::1]/",
                          "https://localhost/", "https://192.168.1.20:8443/h", "https://api.localhost/",
                          "https://0.0.0.0/"}) {
    BOOST_TEST_CONTEXT(url) {
      auto r = create(c, t.write.key, body_of(url));
      BOOST_TEST(is_error(r, 400, "invalid_parameter"), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == "url");
    }
  }
  auto e = create_ok(c, t.write.key);
  auto patched = send(c, "PATCH", "/v1/webhook_endpoints/" + json_str(e, "id"), t.write.key,
                      R"({"url": "https://127.0.0.1:9/"})");
  BOOST_TEST(is_error(patched, 400, "invalid_parameter"), patched.summary());
  BOOST_TEST(json_str(patched.json(), "error.param") == "url");
}

BOOST_AUTO_TEST_CASE(an_idempotent_create_replays_its_answer) {
  auto t = create_team_with_keys();
  auto c = api();
  auto body = body_of(receiver, {"image.completed"});
  auto first = create(c, t.write.key, body, {{"Idempotency-Key", "we-create-1"}});
  BOOST_REQUIRE_MESSAGE(first.status == 201, first.summary());
  BOOST_TEST(!first.header("Idempotent-Replayed"));
  auto again = create(c, t.write.key, body, {{"Idempotency-Key", "we-create-1"}});
  BOOST_REQUIRE_MESSAGE(again.status == 201, again.summary());
  BOOST_TEST(again.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(again.body == first.body, "the stored 201, secret included");
  BOOST_TEST(again.header_or_empty("Location") == first.header_or_empty("Location"));
  BOOST_TEST(data_strings(c.get("/v1/webhook_endpoints", with_key(t.read.key)).json())
             == std::vector<std::string>{json_str(first.json(), "id")});

  auto other_body = create(c, t.write.key, body_of(receiver), {{"Idempotency-Key", "we-create-1"}});
  BOOST_TEST(is_error(other_body, 422, "idempotency_key_reused"), other_body.summary());
  // Keys are scoped to the team.
  auto other_team = create_team_with_keys();
  auto elsewhere = create(c, other_team.write.key, body, {{"Idempotency-Key", "we-create-1"}});
  BOOST_TEST(elsewhere.status == 201, elsewhere.summary());
  BOOST_TEST(json_str(elsewhere.json(), "id") != json_str(first.json(), "id"));
}

BOOST_AUTO_TEST_CASE(list_pages_newest_first) {
  auto t = roomy_team();
  auto c = api();
  auto empty = c.get("/v1/webhook_endpoints", with_key(t.read.key)).json();
  BOOST_TEST(json_str(empty, "object") == "list");
  BOOST_TEST(json_size(empty, "data") == 0);
  BOOST_TEST(json_bool(empty, "has_more") == false);
  BOOST_TEST(json_is_null(empty, "next_cursor"));

  std::vector<std::string> newest_first;
  for (int i = 0; i < 5; ++i)
    newest_first.insert(newest_first.begin(), json_str(create_ok(c, t.write.key), "id"));
  BOOST_TEST(data_strings(c.get("/v1/webhook_endpoints", with_key(t.read.key)).json()) == newest_first);

  auto first = c.get("/v1/webhook_endpoints?limit=2", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(first) == std::vector<std::string>(newest_first.begin(), newest_first.begin() + 2));
  BOOST_TEST(json_bool(first, "has_more") == true);
  BOOST_TEST(json_str(first, "next_cursor") == newest_first[1]);
  auto second = c.get("/v1/webhook_endpoints?limit=2&starting_after=" + newest_first[1], with_key(t.read.key)).json();
  BOOST_TEST(data_strings(second) == std::vector<std::string>(newest_first.begin() + 2, newest_first.begin() + 4));
  auto last = c.get("/v1/webhook_endpoints?limit=2&starting_after=" + newest_first[3], with_key(t.read.key)).json();
  BOOST_TEST(data_strings(last) == std::vector<std::string>{newest_first[4]});
  BOOST_TEST(json_bool(last, "has_more") == false);
  BOOST_TEST(json_is_null(last, "next_cursor"));
  auto exact = c.get("/v1/webhook_endpoints?limit=5", with_key(t.read.key)).json();
  BOOST_TEST(json_bool(exact, "has_more") == false);

  auto other = create_team_with_keys();
  BOOST_TEST(data_strings(c.get("/v1/webhook_endpoints", with_key(other.read.key)).json()).empty());

  for (std::string q : {"limit=0", "limit=101", "limit=x", "starting_after=img_00000000000000000000000000",
                        "colour=red"}) {
    BOOST_TEST_CONTEXT(q) {
      auto r = c.get("/v1/webhook_endpoints?" + q, with_key(t.read.key));
      BOOST_TEST(r.status == 400, r.summary());
    }
  }
  for (std::string q : {"limit=1", "limit=100"})
    BOOST_TEST(c.get("/v1/webhook_endpoints?" + q, with_key(t.read.key)).status == 200, q);
}

BOOST_AUTO_TEST_CASE(another_teams_endpoint_is_not_found) {
  auto owner = create_team_with_keys();
  auto stranger = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_ok(c, owner.write.key), "id");
  auto base = "/v1/webhook_endpoints/" + id;
  struct {
    std::string method, path, body;
  } calls[] = {
    {"GET", base, ""},
    {"PATCH", base, R"({"is_active": false})"},
    {"DELETE", base, ""},
    {"POST", base + "/rotate_secret", ""},
    {"POST", base + "/test", R"({"event_type": "image.completed"})"},
    {"POST", base + "/replay", R"({"since": "2026-01-01T00:00:00Z"})"},
    {"GET", base + "/deliveries", ""},
  };
  for (auto& call : calls) {
    BOOST_TEST_CONTEXT(call.method << " " << call.path) {
      auto r = send(c, call.method, call.path, stranger.full.key, call.body);
      BOOST_TEST(is_error(r, 404, "resource_not_found"), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == "id");
    }
  }
  // Unknown and malformed ids answer the same.
  for (std::string other : {"we_01KAK3T2B4C6D8E0F2G4H6J8K0", "img_01KAK3T2B4C6D8E0F2G4H6J8K0", "nope"}) {
    auto r = c.get("/v1/webhook_endpoints/" + other, with_key(owner.read.key));
    BOOST_TEST(is_error(r, 404, "resource_not_found"), other << ": " << r.summary());
  }
  auto still = c.get(base, with_key(owner.read.key));
  BOOST_TEST(json_bool(still.json(), "is_active") == true, "the stranger changed nothing");
}

BOOST_AUTO_TEST_CASE(patch_changes_each_field) {
  auto t = roomy_team();
  auto c = api();
  auto created = create_ok(c, t.write.key);
  auto path = "/v1/webhook_endpoints/" + json_str(created, "id");

  auto url = send(c, "PATCH", path, t.write.key, R"({"url": "https://other.invalid/v2?x=1"})");
  BOOST_REQUIRE_MESSAGE(url.status == 200, url.summary());
  BOOST_TEST(json_str(url.json(), "url") == "https://other.invalid/v2?x=1");
  BOOST_TEST(strings_at(url.json(), "events") == all_types, "untouched");
  BOOST_TEST(json_is_null(url.json(), "secret"));
  BOOST_TEST(parse_iso8601_ms(json_str(url.json(), "updated_at"))
             >= parse_iso8601_ms(json_str(created, "updated_at")));

  auto events = send(c, "PATCH", path, t.write.key, R"({"events": ["video.failed", "image.failed"]})");
  BOOST_TEST(strings_at(events.json(), "events") == (std::vector<std::string>{"video.failed", "image.failed"}));
  auto all = send(c, "PATCH", path, t.write.key, R"({"events": ["*"]})");
  BOOST_TEST(strings_at(all.json(), "events") == all_types);

  auto metadata = send(c, "PATCH", path, t.write.key, R"({"metadata": {"owner": "ops"}})");
  BOOST_TEST(json_str(metadata.json(), "metadata.owner") == "ops");
  BOOST_TEST(json_str(metadata.json(), "url") == "https://other.invalid/v2?x=1");

  auto off = send(c, "PATCH", path, t.write.key, R"({"is_active": false})");
  BOOST_TEST(json_bool(off.json(), "is_active") == false);
  auto on = send(c, "PATCH", path, t.write.key, R"({"is_active": true})");
  BOOST_TEST(json_bool(on.json(), "is_active") == true);
  BOOST_TEST(json_int(on.json(), "consecutive_failures") == 0);

  auto got = c.get(path, with_key(t.read.key)).json();
  BOOST_TEST(json_str(got, "url") == "https://other.invalid/v2?x=1", "stored");
  BOOST_TEST(json_str(got, "metadata.owner") == "ops");

  struct {
    std::string body, code, param;
  } bad[] = {
    {R"({"secret": "whsec_mine"})", "unknown_parameter", "secret"},
    {R"({"consecutive_failures": 0})", "unknown_parameter", "consecutive_failures"},
    {R"({"is_active": "yes"})", "invalid_parameter", "is_active"},
    {R"({"events": ["image.nope"]})", "invalid_parameter", "events[0]"},
    {R"({"url": "http://other.invalid/"})", "invalid_parameter", "url"},
    {R"({"metadata": []})", "invalid_parameter", "metadata"},
  };
  for (auto& k : bad) {
    BOOST_TEST_CONTEXT(k.body) {
      auto r = send(c, "PATCH", path, t.write.key, k.body);
      BOOST_TEST(is_error(r, 400, k.code), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == k.param);
    }
  }
  auto nothing = send(c, "PATCH", path, t.write.key, "{}");
  BOOST_TEST(is_error(nothing, 400, "invalid_parameter"), nothing.summary());
}

BOOST_AUTO_TEST_CASE(rotate_returns_a_new_secret_once) {
  auto t = create_team_with_keys();
  auto c = api();
  auto created = create_ok(c, t.write.key);
  auto path = "/v1/webhook_endpoints/" + json_str(created, "id");
  auto before = unix_now();
  auto r = send(c, "POST", path + "/rotate_secret", t.write.key);
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto rotated = r.json();
  auto secret = json_str(rotated, "secret");
  BOOST_TEST(secret.rfind("whsec_", 0) == 0u);
  BOOST_TEST(secret.size() == 50u);
  BOOST_TEST(secret != json_str(created, "secret"));
  BOOST_TEST(json_str(rotated, "secret_preview") == "whsec_****" + secret.substr(secret.size() - 4));
  auto grace_end = parse_iso8601_ms(json_str(rotated, "previous_secret_expires_at")) / 1000;
  BOOST_TEST(grace_end >= before + 24 * 3600 - 5, "the previous secret stays valid for 24 h");
  BOOST_TEST(grace_end <= unix_now() + 24 * 3600 + 5);

  auto got = c.get(path, with_key(t.read.key));
  BOOST_TEST(json_is_null(got.json(), "secret"));
  BOOST_TEST(got.body.find(secret) == std::string::npos);
  BOOST_TEST(json_str(got.json(), "secret_preview") == json_str(rotated, "secret_preview"));
  BOOST_TEST(!json_is_null(got.json(), "previous_secret_expires_at"));

  auto with_body = send(c, "POST", path + "/rotate_secret", t.write.key, R"({"now": true})");
  BOOST_TEST(is_error(with_body, 400, "unknown_parameter"), with_body.summary());
  auto empty_object = send(c, "POST", path + "/rotate_secret", t.write.key, "{}");
  BOOST_TEST(empty_object.status == 200, empty_object.summary());
  BOOST_TEST(json_str(empty_object.json(), "secret") != secret);
}

BOOST_AUTO_TEST_CASE(delete_then_not_found) {
  auto t = create_team_with_keys();
  auto c = api();
  auto keep = json_str(create_ok(c, t.write.key), "id");
  auto id = json_str(create_ok(c, t.write.key), "id");
  auto path = "/v1/webhook_endpoints/" + id;
  auto r = send(c, "DELETE", path, t.write.key);
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "id") == id);
  BOOST_TEST(json_str(r.json(), "object") == "webhook_endpoint");
  BOOST_TEST(json_bool(r.json(), "deleted") == true);

  BOOST_TEST(is_error(c.get(path, with_key(t.read.key)), 404, "resource_not_found"));
  BOOST_TEST(is_error(send(c, "DELETE", path, t.write.key), 404, "resource_not_found"));
  BOOST_TEST(is_error(send(c, "PATCH", path, t.write.key, R"({"is_active": true})"), 404, "resource_not_found"));
  BOOST_TEST(is_error(c.get(path + "/deliveries", with_key(t.read.key)), 404, "resource_not_found"));
  BOOST_TEST(data_strings(c.get("/v1/webhook_endpoints", with_key(t.read.key)).json()) == std::vector<std::string>{keep});
}

BOOST_AUTO_TEST_CASE(scopes) {
  auto t = create_team_with_keys();
  auto c = api();
  auto read_create = create(c, t.read.key, body_of(receiver));
  BOOST_TEST(is_error(read_create, 403, "missing_scope"), read_create.summary());
  auto id = json_str(create_ok(c, t.write.key), "id");
  auto path = "/v1/webhook_endpoints/" + id;
  BOOST_TEST(c.get(path, with_key(t.read.key)).status == 200);
  BOOST_TEST(c.get("/v1/webhook_endpoints", with_key(t.read.key)).status == 200);
  BOOST_TEST(c.get(path + "/deliveries", with_key(t.read.key)).status == 200);
  BOOST_TEST(c.get("/v1/events", with_key(t.read.key)).status == 200);
  for (auto [method, suffix, body] : std::vector<std::tuple<std::string, std::string, std::string>>{
         {"PATCH", "", R"({"is_active": true})"},
         {"POST", "/rotate_secret", ""},
         {"POST", "/test", R"({"event_type": "image.completed"})"},
         {"POST", "/replay", R"({"since": "2026-01-01T00:00:00Z"})"},
         {"DELETE", "", ""}}) {
    auto r = send(c, method, path + suffix, t.read.key, body);
    BOOST_TEST(is_error(r, 403, "missing_scope"), method << " " << suffix << ": " << r.summary());
  }
  auto patched = send(c, "PATCH", path, t.write.key, R"({"metadata": {"a": "b"}})");
  BOOST_TEST(patched.status == 200, patched.summary());
  auto full_patch = send(c, "PATCH", path, t.full.key, R"({"metadata": {}})");
  BOOST_TEST(full_patch.status == 200, full_patch.summary());
  BOOST_TEST(send(c, "DELETE", path, t.write.key).status == 200);
}

BOOST_AUTO_TEST_CASE(a_new_endpoint_has_no_deliveries) {
  auto t = create_team_with_keys();
  auto c = api();
  auto path = "/v1/webhook_endpoints/" + json_str(create_ok(c, t.write.key), "id") + "/deliveries";
  auto r = c.get(path, with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "object") == "list");
  BOOST_TEST(json_size(r.json(), "data") == 0);
  BOOST_TEST(json_bool(r.json(), "has_more") == false);
  BOOST_TEST(json_is_null(r.json(), "next_cursor"));
  for (std::string q : {"limit=0", "limit=101", "starting_after=evt_01KAK3T2B4C6D8E0F2G4H6J8K0", "status=failed"}) {
    auto bad = c.get(path + "?" + q, with_key(t.read.key));
    BOOST_TEST(bad.status == 400, q << ": " << bad.summary());
  }
  BOOST_TEST(c.get(path + "?limit=100&starting_after=dlv_01KAK3T2B4C6D8E0F2G4H6J8K0", with_key(t.read.key)).status
             == 200);
}

BOOST_AUTO_TEST_CASE(a_new_team_has_no_events) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.get("/v1/events", with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(json_str(r.json(), "object") == "list");
  BOOST_TEST(json_size(r.json(), "data") == 0);
  BOOST_TEST(json_bool(r.json(), "has_more") == false);
  BOOST_TEST(c.get("/v1/events?type=image.completed&limit=5", with_key(t.read.key)).status == 200);

  check_refused_queries(c, "/v1/events", t.read.key, {
    {"type=image.expired", "invalid_parameter", "type"},
    {"type=*", "invalid_parameter", "type"},
    {"type=", "invalid_parameter", "type"},
    {"limit=0", "invalid_parameter", "limit"},
    {"starting_after=we_01KAK3T2B4C6D8E0F2G4H6J8K0", "invalid_parameter", "starting_after"},
    {"endpoint=we_x", "unknown_parameter", "endpoint"},
  });
  BOOST_TEST(is_error(c.get("/v1/events/evt_01KAK3T2B4C6D8E0F2G4H6J8K0", with_key(t.read.key)), 404,
                      "resource_not_found"));
  BOOST_TEST(is_error(c.get("/v1/events/nope", with_key(t.read.key)), 404, "resource_not_found"));
}

BOOST_AUTO_TEST_CASE(test_fire_answers_202) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_ok(c, t.write.key), "id");
  auto path = "/v1/webhook_endpoints/" + id + "/test";
  auto r = send(c, "POST", path, t.write.key, R"({"event_type": "image.completed"})");
  BOOST_REQUIRE_MESSAGE(r.status == 202, r.summary());
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 30, "the webhooks_test bucket");
  auto fire = r.json();
  BOOST_TEST(json_str(fire, "object") == "webhook_test_fire");
  BOOST_TEST(json_str(fire, "endpoint_id") == id);
  BOOST_TEST(json_str(fire, "event_id").rfind("evt_", 0) == 0u);
  BOOST_TEST(json_bool(fire, "enqueued") == true);
  // Test fires are not in the feed, nor readable there.
  BOOST_TEST(json_size(c.get("/v1/events", with_key(t.read.key)).json(), "data") == 0);
  BOOST_TEST(is_error(c.get("/v1/events/" + json_str(fire, "event_id"), with_key(t.read.key)), 404,
                      "resource_not_found"));
  // A type the endpoint does not subscribe to is still sent.
  auto narrow = json_str(create_ok(c, t.write.key), "id");
  BOOST_TEST(send(c, "PATCH", "/v1/webhook_endpoints/" + narrow, t.write.key, R"({"events": ["image.failed"]})")
               .status == 200);
  auto unsubscribed = send(c, "POST", "/v1/webhook_endpoints/" + narrow + "/test", t.write.key,
                           R"({"event_type": "usage.balance_low"})");
  BOOST_TEST(unsubscribed.status == 202, unsubscribed.summary());
  BOOST_TEST(json_bool(unsubscribed.json(), "enqueued") == true);

  BOOST_TEST(send(c, "PATCH", "/v1/webhook_endpoints/" + id, t.write.key, R"({"is_active": false})").status == 200);
  auto disabled = send(c, "POST", path, t.write.key, R"({"event_type": "video.failed"})");
  BOOST_TEST(disabled.status == 202, disabled.summary());
  BOOST_TEST(json_bool(disabled.json(), "enqueued") == false, "a disabled endpoint is sent nothing");

  for (std::string body : {"{}", R"({"event_type": "image.expired"})", R"({"event_type": "*"})"}) {
    auto bad = send(c, "POST", path, t.write.key, body);
    BOOST_TEST(is_error(bad, 400, "invalid_parameter"), body << ": " << bad.summary());
    BOOST_TEST(json_str(bad.json(), "error.param") == "event_type");
  }
}

BOOST_AUTO_TEST_CASE(replay_answers_202) {
  auto t = create_team_with_keys();
  auto c = api();
  auto id = json_str(create_ok(c, t.write.key), "id");
  auto path = "/v1/webhook_endpoints/" + id + "/replay";
  auto r = send(c, "POST", path, t.write.key, R"({"since": "2026-01-01T00:00:00Z"})");
  BOOST_REQUIRE_MESSAGE(r.status == 202, r.summary());
  BOOST_TEST(json_str(r.json(), "object") == "webhook_replay");
  BOOST_TEST(json_str(r.json(), "endpoint_id") == id);
  BOOST_TEST(json_int(r.json(), "enqueued") == 0, "a new team has no events");

  for (std::string body : {"{}", R"({"since": "yesterday"})", R"({"since": "2999-01-01T00:00:00Z"})"}) {
    auto bad = send(c, "POST", path, t.write.key, body);
    BOOST_TEST(is_error(bad, 400, "invalid_parameter"), body << ": " << bad.summary());
    BOOST_TEST(json_str(bad.json(), "error.param") == "since");
  }
  BOOST_TEST(send(c, "PATCH", "/v1/webhook_endpoints/" + id, t.write.key, R"({"is_active": false})").status == 200);
  auto disabled = send(c, "POST", path, t.write.key, R"({"since": "2026-01-01T00:00:00Z"})");
  BOOST_TEST(is_error(disabled, 409, "invalid_state"), disabled.summary());
}

BOOST_AUTO_TEST_CASE(replayed_events_are_drawn_from_the_teams_replay_bucket) {
  auto t = roomy_team();
  auto c = api();
  auto a = json_str(create_ok(c, t.write.key), "id");
  auto b = json_str(create_ok(c, t.write.key), "id");
  for (auto& id : {a, b})
    BOOST_REQUIRE(send(c, "PATCH", "/v1/webhook_endpoints/" + id, t.write.key, R"({"is_active": false})").status == 200);
  // Three events both endpoints miss while disabled.
  for (int i = 0; i < 3; ++i) {
    auto id = json_str(create_image_ok(c, t.write.key, image_body("missed " + std::to_string(i))), "id");
    BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  }
  for (auto& id : {a, b})
    BOOST_REQUIRE(send(c, "PATCH", "/v1/webhook_endpoints/" + id, t.write.key, R"({"is_active": true})").status == 200);
  ctl_ok({"team", "limits", "--team", t.id, "--bucket", "webhook_replay_events", "--capacity", "2", "--per-minute",
          "0.01"});

  const std::string since = R"({"since": "2026-01-01T00:00:00Z"})";
  auto first = send(c, "POST", "/v1/webhook_endpoints/" + a + "/replay", t.write.key, since);
  BOOST_REQUIRE_MESSAGE(first.status == 202, first.summary());
  BOOST_TEST(json_int(first.json(), "enqueued") == 3, "a replay is paid in full, into debt if need be");

  auto second = send(c, "POST", "/v1/webhook_endpoints/" + b + "/replay", t.write.key, since);
  BOOST_TEST(is_error(second, 429, "too_many_requests"), second.summary());
  BOOST_TEST(json_str(second.json(), "error.message").find("webhook_replay_events") != std::string::npos);
  auto wait = std::stol(second.header("Retry-After").value_or("0"));
  BOOST_TEST(wait > 60 * 60, "two tokens of debt at 0.01 a minute: " << wait << " s");
  BOOST_TEST(json_size(c.get("/v1/webhook_endpoints/" + b + "/deliveries", with_key(t.read.key)).json(), "data") == 0,
             "the refused replay enqueued nothing");
  auto nothing = send(c, "POST", "/v1/webhook_endpoints/" + a + "/replay", t.write.key, since);
  BOOST_TEST(nothing.status == 202, "a replay with nothing to send costs nothing: " << nothing.summary());

  // Another team's bucket is its own.
  auto other = roomy_team();
  auto theirs = json_str(create_ok(c, other.write.key), "id");
  auto r = send(c, "POST", "/v1/webhook_endpoints/" + theirs + "/replay", other.write.key, since);
  BOOST_TEST(r.status == 202, r.summary());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_FIXTURE_TEST_CASE(a_team_has_at_most_max_endpoints_per_team, three_endpoints_per_team) {
  auto t = create_team_with_keys();
  auto c = api();
  std::vector<std::string> made;
  for (int i = 0; i < 3; ++i)
    made.push_back(json_str(create_ok(c, t.write.key), "id"));
  auto fourth = create(c, t.write.key, body_of(receiver));
  BOOST_TEST(is_error(fourth, 400, "endpoint_limit_reached"), fourth.summary());
  BOOST_TEST(json_str(fourth.json(), "error.type") == "invalid_request");
  BOOST_TEST(json_str(fourth.json(), "error.message").find("3 webhook endpoints") != std::string::npos);
  BOOST_TEST(data_strings(c.get("/v1/webhook_endpoints", with_key(t.read.key)).json()).size() == 3u, "nothing created");

  // A keyed create is refused the same way (and its key stays unused).
  auto keyed = create(c, t.write.key, body_of(receiver), {{"Idempotency-Key", "cap-1"}});
  BOOST_TEST(is_error(keyed, 400, "endpoint_limit_reached"), keyed.summary());

  BOOST_REQUIRE(send(c, "DELETE", "/v1/webhook_endpoints/" + made[0], t.write.key).status == 200);
  auto again = create(c, t.write.key, body_of(receiver));
  BOOST_TEST(again.status == 201, "a deleted endpoint frees its place: " << again.summary());
  BOOST_TEST(is_error(create(c, t.write.key, body_of(receiver)), 400, "endpoint_limit_reached"));

  // The cap is per team.
  auto other = create_team_with_keys();
  BOOST_TEST(create(c, other.write.key, body_of(receiver)).status == 201);
}

BOOST_FIXTURE_TEST_SUITE(webhook_endpoints_private, private_receivers)

BOOST_AUTO_TEST_CASE(loopback_receivers_are_allowed_by_the_option) {
  auto t = create_team_with_keys();
  auto c = api();
  for (std::string url : {"https://127.0.0.1:8443/hook", "https://[::1]/", "https://localhost/"}) {
    auto r = create(c, t.write.key, body_of(url));
    BOOST_TEST(r.status == 201, url << ": " << r.summary());
  }
  auto plain = create(c, t.write.key, body_of("http://127.0.0.1/"));
  BOOST_TEST(is_error(plain, 400, "invalid_parameter"), "still https only: " << plain.summary());
}

BOOST_AUTO_TEST_CASE(re_enabling_resets_the_failure_count) {
  auto t = create_team_with_keys();
  auto c = api();
  auto url = "https://127.0.0.1:" + std::to_string(closed_port()) + "/hook";
  auto id = json_str(create_ok(c, t.write.key, url), "id");
  auto path = "/v1/webhook_endpoints/" + id;
  BOOST_REQUIRE(send(c, "POST", path + "/test", t.write.key, R"({"event_type": "image.completed"})").status == 202);

  json::value e;
  bool disabled = wait_until(
    [&] {
      e = c.get(path, with_key(t.read.key)).json();
      return json_bool(e, "is_active") == false;
    },
    15s, 20ms);
  BOOST_REQUIRE_MESSAGE(disabled, "not disabled after two refused attempts: " << json::serialize(e));
  BOOST_TEST(json_int(e, "consecutive_failures") >= 2);
  BOOST_TEST(!json_is_null(e, "disabled_at"));
  BOOST_TEST(!json_is_null(e, "last_failure_at"));
  BOOST_TEST(json_is_null(e, "last_success_at"));

  auto rows = c.get(path + "/deliveries", with_key(t.read.key)).json();
  BOOST_REQUIRE_MESSAGE(json_size(rows, "data") >= 2, json::serialize(rows));
  BOOST_TEST(json_str(rows, "data.0.object") == "webhook_delivery");
  BOOST_TEST(json_str(rows, "data.0.endpoint_id") == id);
  BOOST_TEST(json_str(rows, "data.0.event_type") == "image.completed");
  BOOST_TEST(json_str(rows, "data.0.status") == "failed");
  BOOST_TEST(json_str(rows, "data.0.error_class") == "connect_refused");
  BOOST_TEST(json_is_null(rows, "data.0.response_status"));
  BOOST_TEST(json_int(rows, "data.0.attempt") > json_int(rows, "data.1.attempt"), "newest first");
  auto page = c.get(path + "/deliveries?limit=1", with_key(t.read.key)).json();
  BOOST_TEST(json_bool(page, "has_more") == true);
  auto next = c.get(path + "/deliveries?limit=1&starting_after=" + json_str(page, "next_cursor"),
                    with_key(t.read.key)).json();
  BOOST_TEST(json_str(next, "data.0.id") == json_str(rows, "data.1.id"));

  auto on = send(c, "PATCH", path, t.write.key, R"({"is_active": true})");
  BOOST_REQUIRE_MESSAGE(on.status == 200, on.summary());
  BOOST_TEST(json_bool(on.json(), "is_active") == true);
  BOOST_TEST(json_int(on.json(), "consecutive_failures") == 0);
  BOOST_TEST(json_is_null(on.json(), "disabled_at"));
  BOOST_TEST(json_int(c.get(path, with_key(t.read.key)).json(), "consecutive_failures") == 0, "stored");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
