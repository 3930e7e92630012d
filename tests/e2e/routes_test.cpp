// What each public route answers: the team, balance, pricing, LoRA and API
// key views, list paging, and PATCH /v1/team validation.
#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_routes)

using namespace svc::e2e;

BOOST_FIXTURE_TEST_SUITE(routes, server_fixture)

BOOST_AUTO_TEST_CASE(team_and_balance_views) {
  auto t = create_team_with_keys(700);
  auto c = api();
  auto team = c.get("/v1/team", with_key(t.read.key)).json();
  BOOST_TEST(json_str(team, "id") == t.id);
  BOOST_TEST(json_str(team, "object") == "team");
  BOOST_TEST(!json_str(team, "name").empty());
  BOOST_TEST(json_str(team, "owner_email").find('@') != std::string::npos);
  BOOST_TEST(json_str(team, "default_api_version") == "2026-09-01");
  BOOST_TEST(json_int(team, "balance_low_threshold").has_value());
  BOOST_TEST(json_at(team, "rate_limit_overrides") != nullptr);
  BOOST_TEST(parse_iso8601_ms(json_str(team, "created_at")) > 0, json_str(team, "created_at"));

  auto balance = c.get("/v1/balance", with_key(t.read.key)).json();
  BOOST_TEST(json_str(balance, "object") == "balance");
  BOOST_TEST(json_int(balance, "available") == 700);
  BOOST_TEST(json_int(balance, "held") == 0);
  BOOST_TEST(json_int(balance, "balance_low_threshold") == json_int(team, "balance_low_threshold"));
}

BOOST_AUTO_TEST_CASE(patch_team_sets_the_threshold_and_validates) {
  auto t = create_team_with_keys();
  auto c = api();
  auto ok = c.request("PATCH", "/v1/team", with_key(t.full.key), R"({"balance_low_threshold": 42})");
  BOOST_TEST(ok.status == 200, ok.summary());
  BOOST_TEST(json_int(ok.json(), "balance_low_threshold") == 42);
  BOOST_TEST(json_int(c.get("/v1/team", with_key(t.read.key)).json(), "balance_low_threshold") == 42);
  BOOST_TEST(json_int(c.get("/v1/balance", with_key(t.read.key)).json(), "balance_low_threshold") == 42);

  auto unknown = c.request("PATCH", "/v1/team", with_key(t.full.key), R"({"balance_low_threshold": 1, "name": "x"})");
  BOOST_TEST(is_error(unknown, 400, "unknown_parameter"), unknown.summary());
  BOOST_TEST(json_str(unknown.json(), "error.param") == "name");
  for (std::string body : {R"({"balance_low_threshold": -1})", R"({"balance_low_threshold": "ten"})",
                           R"({"balance_low_threshold": 1.5})"}) {
    auto r = c.request("PATCH", "/v1/team", with_key(t.full.key), body);
    BOOST_TEST(is_error(r, 400, "invalid_parameter"), body << " -> " << r.summary());
    BOOST_TEST(json_str(r.json(), "error.param") == "balance_low_threshold");
  }
  auto garbage = c.request("PATCH", "/v1/team", with_key(t.full.key), "{not json");
  BOOST_TEST(is_error(garbage, 400, "invalid_body"), garbage.summary());
  BOOST_TEST(json_int(c.get("/v1/team", with_key(t.read.key)).json(), "balance_low_threshold") == 42,
             "refused patches change nothing");
}

BOOST_AUTO_TEST_CASE(pricing_view) {
  auto t = create_team_with_keys();
  auto c = api();
  auto p = c.get("/v1/pricing", with_key(t.read.key)).json();
  BOOST_TEST(json_str(p, "object") == "pricing");
  BOOST_TEST(json_str(p, "currency") == "credits");
  BOOST_TEST(json_size(p, "items") > 0);
  for (long i = 0; i < json_size(p, "items"); ++i) {
    auto prefix = "items." + std::to_string(i);
    BOOST_TEST(!json_str(p, prefix + ".item").empty());
    BOOST_TEST(!json_str(p, prefix + ".unit").empty());
    BOOST_TEST(json_int(p, prefix + ".credits").has_value());
  }
}

BOOST_AUTO_TEST_CASE(loras_list_pages_by_cursor) {
  auto t = create_team_with_keys();
  auto c = api();
  auto all = c.get("/v1/loras?limit=100", with_key(t.read.key)).json();
  BOOST_TEST(json_str(all, "object") == "list");
  BOOST_TEST(json_size(all, "data") >= 8, "at least 8 built-ins are seeded");
  std::set<std::string> all_ids;
  for (long i = 0; i < json_size(all, "data"); ++i) {
    auto prefix = "data." + std::to_string(i);
    BOOST_TEST(json_str(all, prefix + ".id").rfind("lora_", 0) == 0);
    BOOST_TEST(json_str(all, prefix + ".object") == "lora");
    BOOST_TEST(!json_str(all, prefix + ".slug").empty());
    BOOST_TEST(json_size(all, prefix + ".keywords") >= 0);
    all_ids.insert(json_str(all, prefix + ".id"));
  }
  BOOST_TEST(json_size(c.get("/v1/loras", with_key(t.read.key)).json(), "data") == std::min<long>(20, all_ids.size()));

  // Walk in pages of 3: every LoRA once, in the same order, then has_more false.
  std::vector<std::string> walked;
  std::string cursor;
  for (int page = 0; page < 50; ++page) {
    auto target = "/v1/loras?limit=3" + (cursor.empty() ? "" : "&starting_after=" + cursor);
    auto r = c.get(target, with_key(t.read.key)).json();
    BOOST_TEST(json_size(r, "data") <= 3);
    for (long i = 0; i < json_size(r, "data"); ++i)
      walked.push_back(json_str(r, "data." + std::to_string(i) + ".id"));
    auto* more = json_at(r, "has_more");
    if (!more || !more->is_bool() || !more->as_bool()) {
      BOOST_TEST(json_is_null(r, "next_cursor"));
      break;
    }
    cursor = json_str(r, "next_cursor");
    BOOST_TEST(cursor == walked.back());
  }
  BOOST_TEST(walked.size() == all_ids.size());
  BOOST_TEST(std::set<std::string>(walked.begin(), walked.end()) == all_ids);

  for (std::string limit : {"0", "101", "-1", "abc"}) {
    auto r = c.get("/v1/loras?limit=" + limit, with_key(t.read.key));
    BOOST_TEST(is_error(r, 400, "invalid_parameter"), "limit=" << limit << " -> " << r.summary());
    BOOST_TEST(json_str(r.json(), "error.param") == "limit");
  }
}

BOOST_AUTO_TEST_CASE(api_keys_list_never_shows_plaintext) {
  auto t = create_team_with_keys();
  auto c = api();
  auto r = c.get("/v1/api_keys?limit=100", with_key(t.full.key));
  BOOST_TEST(r.status == 200, r.summary());
  auto list = r.json();
  BOOST_TEST(json_str(list, "object") == "list");
  BOOST_TEST(json_size(list, "data") == 3);
  BOOST_TEST(r.body.find(t.read.key.substr(9)) == std::string::npos, "no plaintext anywhere in the list");
  for (long i = 0; i < json_size(list, "data"); ++i) {
    auto prefix = "data." + std::to_string(i);
    BOOST_TEST(json_str(list, prefix + ".object") == "api_key");
    BOOST_TEST(json_str(list, prefix + ".team_id") == t.id);
    BOOST_TEST(json_is_null(list, prefix + ".key"));
    BOOST_TEST(json_is_null(list, prefix + ".deactivate_at"));
    auto id = json_str(list, prefix + ".id");
    for (auto* k : {&t.read, &t.write, &t.full})
      if (k->id == id) {
        BOOST_TEST(json_str(list, prefix + ".scope") == k->scope);
        BOOST_TEST(json_str(list, prefix + ".preview") == "svc_live_..." + k->key.substr(k->key.size() - 4));
      }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
