#include "http/handlers/handlers.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include <boost/json.hpp>

#include "http/stages/stages.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_webhook_endpoints)

// The webhook endpoint handlers (webhook_endpoints.cpp) over a real runtime:
// creates go through the endpoint directory, reads come from the tables, and
// every refusal leaves the store as it was (services_fixture.hpp: no socket).

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;
namespace json = boost::json;

constexpr const char* receiver = "https://receiver.example.com/hooks";

struct endpoints_fixture : svc::http::testing::services_fixture {
  // The id of a new endpoint of `team` at `receiver`.
  std::string created(const std::string& team) {
    auto before = answers->size();
    create_webhook_endpoint(team_request(team, bhttp::verb::post, "/v1/webhook_endpoints",
                                         std::string{R"({"url":")"} + receiver + R"(","events":["image.completed"]})"));
    BOOST_REQUIRE(answered(before + 1));
    BOOST_REQUIRE_MESSAGE(status_is(201, before), answer(before));
    return json::value_to<std::string>(body_of(before).at("id"));
  }
  std::size_t stored_endpoints() {
    std::size_t n = 0;
    svc->tables().webhook_endpoints.for_each({}, [&](const svc::schema::webhook_endpoint_record&) {
      ++n;
      return true;
    });
    return n;
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(webhook_endpoint_handlers, endpoints_fixture)

BOOST_AUTO_TEST_CASE(a_create_shows_the_secret_once_and_reads_do_not) {
  auto id = created("team_a");
  BOOST_TEST(json::value_to<std::string>(body_of(0).at("secret")).rfind("whsec_", 0) == 0u, answer(0));
  BOOST_TEST(answers->at(0).head.find("Location: http://svc.test/v1/webhook_endpoints/" + id) != std::string::npos,
             answer(0));
  get_webhook_endpoint(team_request("team_a", bhttp::verb::get, "/v1/webhook_endpoints/" + id, {}, id));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(200, 1), answer(1));
  BOOST_TEST(body_of(1).at("secret").is_null(), answer(1));
  BOOST_TEST(body_of(1).at("id") == body_of(0).at("id"));
}

BOOST_AUTO_TEST_CASE(another_teams_endpoint_and_a_malformed_id_are_404) {
  auto id = created("team_a");
  get_webhook_endpoint(team_request("team_b", bhttp::verb::get, "/v1/webhook_endpoints/" + id, {}, id));
  patch_webhook_endpoint(team_request("team_b", bhttp::verb::patch, "/v1/webhook_endpoints/" + id,
                                      R"({"is_active":false})", id));
  delete_webhook_endpoint(team_request("team_a", bhttp::verb::delete_, "/v1/webhook_endpoints/img_1", {}, "img_1"));
  BOOST_REQUIRE(answered(4));
  for (std::size_t i = 1; i < 4; ++i) {
    BOOST_TEST(status_is(404, i), answer(i));
    BOOST_TEST(answer(i).find("\"resource_not_found\"") != std::string::npos, answer(i));
  }
  auto stored = svc->tables().webhook_endpoints.get(id);
  BOOST_REQUIRE(stored.has_value());
  BOOST_TEST(stored->is_active);
}

BOOST_AUTO_TEST_CASE(a_url_that_is_not_https_or_names_a_private_address_is_refused_and_nothing_stored) {
  for (auto url : {"http://receiver.example.com/hooks", "https://127.0.0.1/hooks", "https://localhost/hooks"})
    create_webhook_endpoint(team_request("team_a", bhttp::verb::post, "/v1/webhook_endpoints",
                                         std::string{R"({"url":")"} + url + R"(","events":["image.completed"]})"));
  BOOST_REQUIRE(answered(3));
  for (std::size_t i = 0; i < 3; ++i) {
    BOOST_TEST(status_is(400, i), answer(i));
    BOOST_TEST(answer(i).find("\"param\":\"url\"") != std::string::npos, answer(i));
  }
  BOOST_TEST(stored_endpoints() == 0u);
}

BOOST_AUTO_TEST_CASE(a_create_repeated_with_its_idempotency_key_answers_the_first_endpoint) {
  auto body = std::string{R"({"url":")"} + receiver + R"(","events":["image.completed"]})";
  create_webhook_endpoint(team_request("team_a", bhttp::verb::post, "/v1/webhook_endpoints", body, {},
                                       {{"Idempotency-Key", "endpoint-once"}}));
  BOOST_REQUIRE(answered(1));
  create_webhook_endpoint(team_request("team_a", bhttp::verb::post, "/v1/webhook_endpoints", body, {},
                                       {{"Idempotency-Key", "endpoint-once"}}));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(201, 0), answer(0));
  BOOST_TEST(status_is(201, 1), answer(1));
  BOOST_TEST(body_of(0).at("id") == body_of(1).at("id"));
  BOOST_TEST(stored_endpoints() == 1u);
}

BOOST_AUTO_TEST_CASE(a_deleted_endpoint_is_gone) {
  auto id = created("team_a");
  delete_webhook_endpoint(team_request("team_a", bhttp::verb::delete_, "/v1/webhook_endpoints/" + id, {}, id));
  BOOST_REQUIRE(answered(2));
  BOOST_TEST(status_is(200, 1), answer(1));
  BOOST_TEST(answer(1).find("\"deleted\":true") != std::string::npos, answer(1));
  get_webhook_endpoint(team_request("team_a", bhttp::verb::get, "/v1/webhook_endpoints/" + id, {}, id));
  BOOST_REQUIRE(answered(3));
  BOOST_TEST(status_is(404, 2), answer(2));
  BOOST_TEST(stored_endpoints() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
