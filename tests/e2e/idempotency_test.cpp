// Idempotency-Key on POST /v1/images: a retry with the same body replays the
// stored 201 (Idempotent-Replayed: true), another body is 422, a key still
// in flight is 409, keys are per team, at most 255 characters, and after
// --idempotency-ttl a reused key creates a new job. Never two jobs per key.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <atomic>
#include <chrono>
#include <set>
#include <string>
#include <thread>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_idempotency)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct ttl_1s : server_fixture {
  ttl_1s() : server_fixture({"--idempotency-ttl", "1s"}) {}
};

header_map idem(const std::string& key) { return {{"Idempotency-Key", key}}; }

} // namespace

BOOST_FIXTURE_TEST_CASE(same_key_same_body_replays_the_first_answer, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = image_body("a red bicycle");
  auto first = create_image(c, t.write.key, body, idem("retry-1"));
  BOOST_REQUIRE_MESSAGE(first.status == 201, first.summary());
  BOOST_TEST(first.header_or_empty("Idempotent-Replayed").empty());
  auto id = json_str(first.json(), "id");
  auto credits = json_int(first.json(), "cost.credits").value_or(-1);

  auto second = create_image(c, t.write.key, body, idem("retry-1"));
  BOOST_TEST(second.status == 201, second.summary());
  BOOST_TEST(second.body == first.body, "byte for byte");
  BOOST_TEST(second.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(second.header_or_empty("Location") == first.header_or_empty("Location"));

  // The same JSON spelled with other whitespace is the same request.
  auto spaced = c.request("POST", "/v1/images", with_key(t.write.key, idem("retry-1")),
                          "{ \"prompt\" : \"a red bicycle\",\n  \"width\": 256, \"height\": 256 }");
  BOOST_TEST(spaced.status == 201, spaced.summary());
  BOOST_TEST(spaced.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(spaced.body == first.body);

  // After the job finished, the replay is still the stored 201, not the live record.
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  auto late = create_image(c, t.write.key, body, idem("retry-1"));
  BOOST_TEST(late.status == 201, late.summary());
  BOOST_TEST(late.body == first.body);
  BOOST_TEST(late.header_or_empty("Idempotent-Replayed") == "true");

  BOOST_TEST(list_image_ids(c, t.read.key) == std::vector<std::string>{id}, "one job for the key");
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000 - credits, "charged once");
  BOOST_TEST(b.held == 0);
}

BOOST_FIXTURE_TEST_CASE(same_key_other_body_is_422, server_fixture) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto first = create_image(c, t.write.key, image_body("a red bicycle"), idem("k-422"));
  BOOST_REQUIRE_MESSAGE(first.status == 201, first.summary());
  auto before = get_balance(c, t.read.key);

  for (auto other : {image_body("a blue bicycle"), image_body("a red bicycle", 512, 256)}) {
    auto r = create_image(c, t.write.key, other, idem("k-422"));
    BOOST_TEST(is_error(r, 422, "idempotency_key_reused"), r.summary());
    BOOST_TEST(json_str(r.json(), "error.param") == "Idempotency-Key");
    BOOST_TEST(json_str(r.json(), "error.type") == "invalid_request");
    BOOST_TEST(r.header_or_empty("Idempotent-Replayed").empty());
  }
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 1u);
  BOOST_TEST(get_balance(c, t.read.key).available == before.available);
  // The original body still replays.
  auto again = create_image(c, t.write.key, image_body("a red bicycle"), idem("k-422"));
  BOOST_TEST(again.body == first.body);
}

BOOST_FIXTURE_TEST_CASE(keys_are_scoped_to_the_team, server_fixture) {
  auto a = create_team_with_keys();
  auto b = create_team_with_keys();
  auto c = api();
  auto body = image_body("shared key");
  auto ra = create_image(c, a.write.key, body, idem("same-key"));
  auto rb = create_image(c, b.write.key, body, idem("same-key"));
  BOOST_TEST(ra.status == 201, ra.summary());
  BOOST_TEST(rb.status == 201, rb.summary());
  BOOST_TEST(rb.header_or_empty("Idempotent-Replayed").empty());
  BOOST_TEST(json_str(ra.json(), "id") != json_str(rb.json(), "id"));
  BOOST_TEST(list_image_ids(c, b.read.key) == std::vector<std::string>{json_str(rb.json(), "id")});
  // Another key of the same team shares the record.
  auto full = create_image(c, a.full.key, body, idem("same-key"));
  BOOST_TEST(full.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(full.body == ra.body);
}

BOOST_FIXTURE_TEST_CASE(concurrent_creates_with_one_key_make_one_job, server_fixture) {
  auto t = create_team_with_keys(100000);
  int in_use = 0, replayed = 0;
  constexpr int rounds = 30;
  for (int round = 0; round < rounds; ++round) {
    BOOST_TEST_CONTEXT("round " << round) {
      auto key = "race-" + std::to_string(round);
      auto body = image_body("race " + std::to_string(round));
      // Two connections, warmed up, released together.
      http_client c1 = api(), c2 = api();
      c1.get("/v1/balance", with_key(t.read.key));
      c2.get("/v1/balance", with_key(t.read.key));
      std::atomic<int> ready{0};
      response r1, r2;
      auto fire = [&](http_client& c, response& out) {
        ++ready;
        while (ready.load() < 2) {
        }
        out = create_image(c, t.write.key, body, idem(key));
      };
      std::thread th([&] { fire(c2, r2); });
      fire(c1, r1);
      th.join();

      std::multiset<int> statuses{r1.status, r2.status};
      BOOST_TEST((statuses == std::multiset<int>{201, 201} || statuses == std::multiset<int>{201, 409}),
                 r1.summary() << " / " << r2.summary());
      if (statuses.count(409) == 1) {
        auto& conflict = r1.status == 409 ? r1 : r2;
        BOOST_TEST(is_error(conflict, 409, "idempotency_key_in_use"), conflict.summary());
        ++in_use;
      } else {
        BOOST_TEST(json_str(r1.json(), "id") == json_str(r2.json(), "id"), "two distinct jobs for one key");
        BOOST_TEST(r1.body == r2.body);
        BOOST_TEST((r1.header_or_empty("Idempotent-Replayed") == "true")
                     != (r2.header_or_empty("Idempotent-Replayed") == "true"),
                   "exactly one of them is the replay");
        ++replayed;
      }
    }
  }
  BOOST_TEST_MESSAGE("409 idempotency_key_in_use in " << in_use << " of " << rounds << " rounds, replays in "
                                                       << replayed);
  auto c = api();
  BOOST_TEST(list_image_ids(c, t.read.key).size() == static_cast<std::size_t>(rounds), "one job per key");
}

BOOST_FIXTURE_TEST_CASE(key_length_and_characters_are_checked, server_fixture) {
  auto t = create_team_with_keys();
  auto c = api();
  auto too_long = create_image(c, t.write.key, image_body(), idem(std::string(256, 'k')));
  BOOST_TEST(is_error(too_long, 400, "invalid_parameter"), too_long.summary());
  BOOST_TEST(json_str(too_long.json(), "error.param") == "Idempotency-Key");
  BOOST_TEST(list_image_ids(c, t.read.key).empty(), "a refused key creates nothing");

  auto longest = create_image(c, t.write.key, image_body(), idem(std::string(255, 'k')));
  BOOST_TEST(longest.status == 201, longest.summary());
  auto replay = create_image(c, t.write.key, image_body(), idem(std::string(255, 'k')));
  BOOST_TEST(replay.header_or_empty("Idempotent-Replayed") == "true");

  auto printable = create_image(c, t.write.key, image_body(), idem("~!@#$%^&*()_+ {}|:<>?"));
  BOOST_TEST(printable.status == 201, printable.summary());
  auto high = create_image(c, t.write.key, image_body(), idem("caf\xc3\xa9"));
  BOOST_TEST(is_error(high, 400, "invalid_parameter"), high.summary());
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(a_refused_create_does_not_store_the_key, server_fixture) {
  auto t = create_team_with_keys(2);
  auto c = api();
  auto poor = create_image(c, t.write.key, image_body(), idem("after-top-up"));
  BOOST_TEST(is_error(poor, 402, "insufficient_credits"), poor.summary());
  auto invalid = create_image(c, t.write.key, image_body("x", 100, 256), idem("after-fix"));
  BOOST_TEST(is_error(invalid, 400, "invalid_parameter"), invalid.summary());

  ctl_ok({"credits", "add", "--team", t.id, "--amount", "10"});
  auto retried = create_image(c, t.write.key, image_body(), idem("after-top-up"));
  BOOST_TEST(retried.status == 201, retried.summary());
  BOOST_TEST(retried.header_or_empty("Idempotent-Replayed").empty());
  auto fixed = create_image(c, t.write.key, image_body("x"), idem("after-fix"));
  BOOST_TEST(fixed.status == 201, fixed.summary());
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u);
}

BOOST_FIXTURE_TEST_CASE(after_the_ttl_a_reused_key_creates_a_new_job, ttl_1s) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = image_body("kept one second");
  auto start = std::chrono::steady_clock::now();
  auto first = create_image(c, t.write.key, body, idem("short-lived"));
  BOOST_REQUIRE_MESSAGE(first.status == 201, first.summary());
  auto first_id = json_str(first.json(), "id");

  response last;
  bool fresh = wait_until(
    [&] {
      last = create_image(c, t.write.key, body, idem("short-lived"));
      return last.status != 201 || last.header_or_empty("Idempotent-Replayed") != "true";
    },
    10s, 50ms);
  auto took = std::chrono::steady_clock::now() - start;
  BOOST_REQUIRE_MESSAGE(fresh, "still replayed 10 s later");
  BOOST_TEST(last.status == 201, last.summary());
  BOOST_TEST(json_str(last.json(), "id") != first_id);
  BOOST_TEST(took >= 900ms, "the key was forgotten before its TTL");
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 2u, "the replays in between created nothing");

  // The new job now owns the key.
  auto replay = create_image(c, t.write.key, body, idem("short-lived"));
  BOOST_TEST(replay.header_or_empty("Idempotent-Replayed") == "true");
  BOOST_TEST(replay.body == last.body);
}

BOOST_AUTO_TEST_SUITE_END()
