#include "http/idempotency.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <memory>
#include <optional>
#include <string>

#include "persistence/job_rows.hpp"
#include "persistence/store_tables.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_idempotency)

// What every create under `Idempotency-Key` shares (job and webhook endpoint
// creates): the claim and its replay before anything is admitted, the record
// that replays the create, and the answer once the actor decided.

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;

const boost::json::object body{{"prompt", "a fox"}};

struct claim_fixture : testing::services_fixture {
  context_ptr create(std::optional<std::string> key) {
    std::vector<std::pair<std::string, std::string>> fields;
    if (key)
      fields.emplace_back("Idempotency-Key", *key);
    auto ctx = request(bhttp::verb::post, "/v1/images", fields, boost::json::serialize(body));
    auto team = std::make_shared<svc::schema::team_record>();
    team->id = "team_a";
    ctx->team = team;
    return ctx;
  }

  // An earlier create of `fingerprinted` under "k1" that answered 201 `answer`.
  void store_earlier(const boost::json::object& fingerprinted, const std::string& answer) {
    auto ctx = create("k1");
    bool ok = false;
    auto claim = read_idempotency_claim(ctx, fingerprinted, ok);
    BOOST_REQUIRE(ok && claim);
    auto record = replay_record(ctx, "images", claim, answer, "http://svc.test/v1/images/img_1");
    BOOST_REQUIRE(record);
    svc::persistence::write_batch b;
    svc->tables().idempotency.put(b, svc::persistence::idempotency_key("team_a", "images", "k1"), *record);
    BOOST_REQUIRE(env->commit(b).ok());
  }

  std::string answer(std::size_t i = 0) { return answers->at(i).head + "\r\n" + answers->at(i).body; }
};

struct created {
  bool replayed = false;
  svc::schema::idempotency_record earlier;
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(idempotency, claim_fixture)

BOOST_AUTO_TEST_CASE(a_create_without_the_header_goes_on_without_a_claim) {
  std::optional<idempotency_claim> claim{idempotency_claim{"stale", "stale"}};
  BOOST_TEST(claim_create(create(std::nullopt), "images", body, claim));
  BOOST_TEST(!claim.has_value());
  BOOST_TEST(answers->empty());
  BOOST_TEST(!replay_record(create(std::nullopt), "images", claim, "{}", "/x").has_value());
}

BOOST_AUTO_TEST_CASE(a_first_create_under_a_key_goes_on_with_its_claim) {
  std::optional<idempotency_claim> claim;
  BOOST_TEST(claim_create(create("k1"), "images", body, claim));
  BOOST_REQUIRE(claim.has_value());
  BOOST_TEST(claim->key == "k1");
  BOOST_TEST(claim->request_sha256.size() == 64u);
  BOOST_TEST(answers->empty());
}

BOOST_AUTO_TEST_CASE(a_malformed_key_is_answered_400) {
  std::optional<idempotency_claim> claim;
  BOOST_TEST(!claim_create(create(std::string(256, 'k')), "images", body, claim));
  BOOST_REQUIRE_EQUAL(answers->size(), 1u);
  BOOST_TEST(answer().rfind("HTTP/1.1 400", 0) == 0u, answer());
  BOOST_TEST(answer().find("Idempotency-Key") != std::string::npos, answer());
}

BOOST_AUTO_TEST_CASE(a_repeat_replays_the_earlier_answer_and_another_body_is_422) {
  store_earlier(body, R"({"id":"img_1"})");
  std::optional<idempotency_claim> claim;
  BOOST_TEST(!claim_create(create("k1"), "images", body, claim));
  BOOST_TEST(!claim_create(create("k1"), "images", boost::json::object{{"prompt", "a hen"}}, claim));
  // Another route's key space does not hold it.
  BOOST_TEST(claim_create(create("k1"), "videos", body, claim));
  BOOST_REQUIRE_EQUAL(answers->size(), 2u);
  BOOST_TEST(answer(0).rfind("HTTP/1.1 201", 0) == 0u, answer(0));
  BOOST_TEST(answer(0).find("Idempotent-Replayed: true") != std::string::npos, answer(0));
  BOOST_TEST(answer(0).find("Location: http://svc.test/v1/images/img_1") != std::string::npos, answer(0));
  BOOST_TEST(answers->at(0).body == R"({"id":"img_1"})");
  BOOST_TEST(answer(1).rfind("HTTP/1.1 422", 0) == 0u, answer(1));
}

BOOST_AUTO_TEST_CASE(the_replay_record_keeps_the_answer_for_the_ttl) {
  std::optional<idempotency_claim> claim = idempotency_claim{"k1", std::string(64, 'a')};
  auto before = clock->now();
  auto r = replay_record(create("k1"), "webhook_endpoints", claim, "{\"id\":\"we_1\"}", "http://svc.test/v1/x");
  auto after = clock->now();
  BOOST_REQUIRE(r.has_value());
  BOOST_TEST(r->team_id == "team_a");
  BOOST_TEST(r->route == "webhook_endpoints");
  BOOST_TEST(r->key == "k1");
  BOOST_TEST(r->request_sha256 == std::string(64, 'a'));
  BOOST_TEST(r->status == 201);
  BOOST_TEST(r->body == "{\"id\":\"we_1\"}");
  BOOST_TEST(r->location == "http://svc.test/v1/x");
  BOOST_TEST((before <= r->created_at && r->created_at <= after));
  BOOST_TEST((r->expires_at - r->created_at == cfg.idempotency_ttl));
}

BOOST_AUTO_TEST_CASE(on_created_answers_201_or_the_earlier_creates_replay) {
  std::optional<idempotency_claim> claim = idempotency_claim{"k1", std::string(64, 'a')};
  created fresh;
  on_created<created>(create("k1"), claim, R"({"id":"we_2"})", "http://svc.test/v1/x/we_2")(fresh);
  created raced;
  raced.replayed = true;
  raced.earlier = *replay_record(create("k1"), "x", claim, R"({"id":"we_1"})", "http://svc.test/v1/x/we_1");
  on_created<created>(create("k1"), claim, R"({"id":"we_2"})", "http://svc.test/v1/x/we_2")(raced);
  BOOST_REQUIRE_EQUAL(answers->size(), 2u);
  BOOST_TEST(answer(0).rfind("HTTP/1.1 201", 0) == 0u, answer(0));
  BOOST_TEST(answer(0).find("Location: http://svc.test/v1/x/we_2") != std::string::npos, answer(0));
  BOOST_TEST(answer(0).find("Idempotent-Replayed") == std::string::npos, answer(0));
  BOOST_TEST(answers->at(0).body == R"({"id":"we_2"})");
  BOOST_TEST(answer(1).find("Idempotent-Replayed: true") != std::string::npos, answer(1));
  BOOST_TEST(answers->at(1).body == R"({"id":"we_1"})");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
