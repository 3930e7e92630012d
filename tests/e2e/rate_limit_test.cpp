// Per-team token buckets end to end: the reads burst of 1200 then 429, one
// bucket shared by all keys of a team, teams independent, `svcctl team
// limits` overrides, and bucket state surviving a restart.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cmath>
#include <optional>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_rate_limit)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct drain_result {
  int successes = 0;                  // 200s before the first 429
  std::optional<response> first;      // first answer
  std::optional<response> limited;    // the first 429
  double seconds = 0;                 // time taken
};

// GETs /v1/team until the first 429 (or `max` requests).
drain_result drain(http_client& c, const std::string& key, int max) {
  drain_result d;
  auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < max; ++i) {
    auto r = c.get("/v1/team", with_key(key));
    if (!d.first)
      d.first = r;
    if (r.status == 429) {
      d.limited = std::move(r);
      break;
    }
    if (r.status != 200) {
      BOOST_ERROR("unexpected answer while draining: " << r.summary());
      break;
    }
    ++d.successes;
  }
  d.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return d;
}

// Tokens the reads bucket (600/min) may have regained in `seconds`, plus slack.
int refill_allowance(double seconds) { return static_cast<int>(std::ceil(seconds * 10)) + 3; }

} // namespace

BOOST_FIXTURE_TEST_SUITE(rate_limit, server_fixture)

BOOST_AUTO_TEST_CASE(reads_burst_then_429) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto c = api();
  auto d = drain(c, a.read.key, 5000);
  BOOST_TEST_MESSAGE("drained " << d.successes << " in " << d.seconds << " s");
  BOOST_REQUIRE_MESSAGE(d.limited, "no 429 after " << d.successes << " requests");
  BOOST_TEST(c.connections_opened() <= 2u, "keep-alive was used");
  BOOST_TEST(header_int(*d.first, "X-RateLimit-Remaining") == 1199);
  BOOST_TEST(d.successes >= 1200);
  BOOST_TEST(d.successes <= 1200 + refill_allowance(d.seconds));

  auto& r = *d.limited;
  auto body = r.json();
  BOOST_TEST(json_str(body, "error.type") == "rate_limit");
  BOOST_TEST(json_str(body, "error.code") == "too_many_requests");
  BOOST_TEST(json_str(body, "error.message").find("reads") != std::string::npos, json_str(body, "error.message"));
  BOOST_TEST(json_str(body, "error.request_id") == r.header_or_empty("Svc-Request-Id"));
  auto retry = header_int(r, "Retry-After");
  BOOST_TEST(retry.has_value(), "Retry-After '" << r.header_or_empty("Retry-After") << "'");
  BOOST_TEST(retry >= 1);
  BOOST_TEST(retry <= 2, "600/min: a token every 0.1 s");
  BOOST_TEST(header_int(r, "X-RateLimit-Remaining") == 0);
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 1200);
  BOOST_TEST(header_int(r, "X-RateLimit-Reset").value_or(0) >= unix_now() + 100, "refilling 1200 takes ~120 s");

  // Another team is unaffected.
  auto other = c.get("/v1/team", with_key(b.read.key));
  BOOST_TEST(other.status == 200, other.summary());
  BOOST_TEST(header_int(other, "X-RateLimit-Remaining") == 1199);

  // Another key of the drained team finds the shared bucket (nearly) empty.
  auto same = c.get("/v1/team", with_key(a.full.key));
  BOOST_TEST((same.status == 429 || header_int(same, "X-RateLimit-Remaining") <= 2), same.summary());

  // After Retry-After the team is served again.
  bool served = wait_until([&] { return c.get("/v1/team", with_key(a.read.key)).status == 200; },
                           std::chrono::seconds{retry.value_or(1) + 3}, 100ms);
  BOOST_TEST(served);
}

BOOST_AUTO_TEST_CASE(keys_of_a_team_share_one_bucket) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  // A slow refill (1 per minute) makes the counts exact.
  ctl_ok({"team", "limits", "--team", a.id, "--bucket", "reads", "--capacity", "20", "--per-minute", "1"});
  auto c = api();
  auto d = drain(c, a.read.key, 100);
  BOOST_REQUIRE(d.limited);
  BOOST_TEST(d.successes == 20);
  for (auto* key : {&a.write, &a.full}) {
    auto r = c.get("/v1/balance", with_key(key->key));
    BOOST_TEST(is_error(r, 429, "too_many_requests"), key->scope << ": " << r.summary());
    BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 20);
  }
  auto other = c.get("/v1/team", with_key(b.write.key));
  BOOST_TEST(other.status == 200, other.summary());
  BOOST_TEST(header_int(other, "X-RateLimit-Limit") == 1200);
  // The anonymous bucket is a different one too.
  auto anon = c.get("/docs/errors");
  BOOST_TEST(anon.status == 200);
}

BOOST_AUTO_TEST_CASE(limits_override_applies_to_a_live_bucket_and_persists) {
  auto t = create_team_with_keys();
  auto c = api();
  auto before = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(header_int(before, "X-RateLimit-Limit") == 1200);

  auto team = ctl_ok({"team", "limits", "--team", t.id, "--bucket", "reads", "--capacity", "50", "--per-minute",
                      "60"});
  BOOST_TEST(json_str(team, "id") == t.id);
  BOOST_TEST(json_int(team, "rate_limit_overrides.reads.capacity") == 50);
  BOOST_TEST(json_int(team, "rate_limit_overrides.reads.per_minute") == 60);

  auto after = c.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(after.status == 200, after.summary());
  BOOST_TEST(header_int(after, "X-RateLimit-Limit") == 50);
  BOOST_TEST(header_int(after, "X-RateLimit-Remaining") <= 49);
  BOOST_TEST(json_int(after.json(), "rate_limit_overrides.reads.capacity") == 50);

  auto d = drain(c, t.read.key, 200);
  BOOST_REQUIRE(d.limited);
  BOOST_TEST(d.successes <= 49 + static_cast<int>(std::ceil(d.seconds)) + 1);
  BOOST_TEST(header_int(*d.limited, "X-RateLimit-Limit") == 50);

  BOOST_TEST(svcd.restart() == 0);
  auto c2 = api();
  auto r = c2.get("/v1/team", with_key(t.read.key));
  BOOST_TEST(header_int(r, "X-RateLimit-Limit") == 50, "the override is stored: " << r.summary());
  // One token a second: wait for one to read the stored team record.
  BOOST_TEST(wait_until([&] { return (r = c2.get("/v1/team", with_key(t.read.key))).status == 200; }, 5s, 200ms));
  BOOST_TEST(json_int(r.json(), "rate_limit_overrides.reads.per_minute") == 60);
}

BOOST_AUTO_TEST_CASE(drained_bucket_stays_drained_across_restart) {
  auto t = create_team_with_keys();
  auto c = api();
  auto d = drain(c, t.read.key, 5000);
  BOOST_REQUIRE(d.limited);
  auto drained_at = std::chrono::steady_clock::now();

  BOOST_TEST(svcd.stop() == 0);
  svcd.start();
  auto c2 = api();
  auto r = c2.get("/v1/team", with_key(t.read.key));
  double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - drained_at).count();
  BOOST_TEST_MESSAGE("first request " << since << " s after draining: " << r.status << " remaining "
                                      << r.header_or_empty("X-RateLimit-Remaining"));
  if (r.status == 200)
    BOOST_TEST(header_int(r, "X-RateLimit-Remaining").value_or(1200) <= refill_allowance(since),
               "bucket refilled only by elapsed time, not reset to 1200");
  else
    BOOST_TEST(is_error(r, 429, "too_many_requests"), r.summary());
}

// Takes allowed on the HTTP thread from a copy of the bucket
// (http/rate_allowance.hpp) are charged to the bucket actor in batches, and
// at shutdown: a stop right after them must not give them back.
BOOST_AUTO_TEST_CASE(takes_answered_from_the_bucket_copy_survive_a_restart) {
  auto t = create_team_with_keys();
  auto c = api();
  constexpr int taken = 100;
  for (int i = 0; i < taken; ++i)
    BOOST_REQUIRE_EQUAL(c.get("/v1/team", with_key(t.read.key)).status, 200);
  auto taken_at = std::chrono::steady_clock::now();

  BOOST_TEST(svcd.restart() == 0);
  auto r = api().get("/v1/team", with_key(t.read.key));
  double since = std::chrono::duration<double>(std::chrono::steady_clock::now() - taken_at).count();
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  auto remaining = header_int(r, "X-RateLimit-Remaining");
  BOOST_REQUIRE(remaining);
  BOOST_TEST(*remaining <= 1200 - taken - 1 + refill_allowance(since),
             "the " << taken << " reads before the restart still count (" << since << " s ago)");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
