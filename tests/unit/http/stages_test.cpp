#include "http/stages/stages.hpp"

#include <boost/test/unit_test.hpp>

#include <memory>
#include <string>

#include "core/crypto.hpp"
#include "schema/api_key_format.hpp"
#include "services_fixture.hpp"
#include "tests/support/spawn_behavior.hpp"

BOOST_AUTO_TEST_SUITE(http_stages)

// The pipeline's stages one at a time, on a request context of their own:
// no socket and no pipeline around them (services_fixture.hpp).

namespace {

using namespace svc::http;
using svc::schema::error_code;
namespace bhttp = boost::beast::http;

void no_handler(const context_ptr&) {}

// A router of three routes, one per scope a route may need.
router test_routes() {
  using svc::schema::bucket_class;
  using svc::schema::scope;
  return router{{{bhttp::verb::get, "/v1/open", scope::none, bucket_class::reads, no_handler, "open"},
                 {bhttp::verb::get, "/v1/things/{id}", scope::read, bucket_class::reads, no_handler, "read"},
                 {bhttp::verb::post, "/v1/things", scope::write, bucket_class::images_post, no_handler, "write"}}};
}

struct stages_fixture : svc::http::testing::services_fixture {
  router routes = test_routes();

  // A context for `method target` with `fields`, its id assigned and target split.
  context_ptr request(bhttp::verb method, std::string target,
                      std::vector<std::pair<std::string, std::string>> fields = {}) {
    auto ctx = services_fixture::request(method, std::move(target), std::move(fields));
    assign_request_id(*ctx);
    return ctx;
  }

  static error_code code_of(const context_ptr& ctx) {
    BOOST_REQUIRE(ctx->error.has_value());
    return ctx->error->code;
  }
};

// A well-formed key no store holds.
std::string unknown_key() { return svc::schema::api_key_plaintext(svc::core::to_hex(svc::core::sha256("nobody's"))); }

} // namespace

BOOST_FIXTURE_TEST_SUITE(pipeline_stages, stages_fixture)

BOOST_AUTO_TEST_CASE(every_request_gets_an_id_and_a_valid_client_id_is_kept) {
  auto a = request(bhttp::verb::get, "/v1/open?limit=2", {{"X-Request-Id", "client-42"}});
  auto b = request(bhttp::verb::get, "/v1/open");
  BOOST_TEST(a->request_id.rfind("req_", 0) == 0u);
  BOOST_TEST(a->request_id != b->request_id);
  BOOST_TEST(a->client_request_id == "client-42");
  BOOST_TEST(a->path == "/v1/open");
  BOOST_TEST(a->query.size() == 1u);
}

BOOST_AUTO_TEST_CASE(the_admin_token_as_a_request_id_is_not_kept) {
  auto ctx = request(bhttp::verb::get, "/v1/open", {{"X-Request-Id", "admin-token-0123"}});
  BOOST_TEST(ctx->client_request_id.empty(), "it would be logged and echoed");
}

BOOST_AUTO_TEST_CASE(unknown_paths_are_404_and_other_methods_405_with_allow) {
  auto missing = request(bhttp::verb::get, "/v1/nothing");
  BOOST_TEST(!match_route(*missing, routes));
  BOOST_TEST((code_of(missing) == error_code::route_not_found));
  auto wrong = request(bhttp::verb::delete_, "/v1/things");
  BOOST_TEST(!match_route(*wrong, routes));
  BOOST_TEST((code_of(wrong) == error_code::method_not_allowed));
  BOOST_TEST(wrong->match.allow == "POST");
  auto found = request(bhttp::verb::get, "/v1/things/t_1");
  BOOST_TEST(match_route(*found, routes));
  BOOST_TEST(found->param("id") == "t_1");
}

BOOST_AUTO_TEST_CASE(a_known_version_applies_and_an_unknown_one_is_400) {
  auto none = request(bhttp::verb::get, "/v1/open");
  BOOST_TEST(check_version(*none));
  BOOST_TEST(none->version.empty(), "the team's default applies later");
  auto bad = request(bhttp::verb::get, "/v1/open", {{"Svc-Version", "1999-01-01"}});
  BOOST_TEST(!check_version(*bad));
  BOOST_TEST((code_of(bad) == error_code::invalid_api_version));
  BOOST_TEST(bad->error->param == "Svc-Version");
}

BOOST_AUTO_TEST_CASE(keys_in_the_query_are_refused_under_any_name) {
  auto named = request(bhttp::verb::get, "/v1/open?API_KEY=x");
  BOOST_TEST(!refuse_query_key(*named));
  BOOST_TEST((code_of(named) == error_code::api_key_in_query));
  auto pasted = request(bhttp::verb::get, "/v1/open?q=" + unknown_key());
  BOOST_TEST(!refuse_query_key(*pasted), "a key's shape under an innocent name");
  auto clean = request(bhttp::verb::get, "/v1/open?q=lighthouse");
  BOOST_TEST(refuse_query_key(*clean));
}

BOOST_AUTO_TEST_CASE(legacy_paths_redirect_until_the_sunset_then_are_gone) {
  cfg.legacy_sunset = clock->now() + std::chrono::hours{1};
  auto before = request(bhttp::verb::get, "/v1/generations/img_1?x=1");
  BOOST_TEST(!check_legacy_path(*before));
  BOOST_REQUIRE(before->legacy.has_value());
  BOOST_TEST(!before->error.has_value());
  bool location = false;
  for (auto& [name, value] : before->legacy->headers)
    location = location || (name == "Location" && value == "/v1/images/img_1?x=1");
  BOOST_TEST(location);
  clock->advance(std::chrono::hours{2});
  auto after = request(bhttp::verb::get, "/v1/generations/img_1");
  BOOST_TEST(!check_legacy_path(*after));
  BOOST_TEST((code_of(after) == error_code::route_sunset));
  auto other = request(bhttp::verb::get, "/v1/generationsX");
  BOOST_TEST(check_legacy_path(*other), "only the prefix and its sub-paths are legacy");
}

BOOST_AUTO_TEST_CASE(a_route_that_needs_no_key_passes_without_one) {
  auto ctx = request(bhttp::verb::get, "/v1/open");
  BOOST_REQUIRE(match_route(*ctx, routes));
  BOOST_TEST(authenticate(*ctx));
  BOOST_TEST(check_scope(*ctx));
}

BOOST_AUTO_TEST_CASE(no_key_a_malformed_key_and_an_unknown_key_are_401) {
  auto none = request(bhttp::verb::get, "/v1/things/t_1");
  BOOST_REQUIRE(match_route(*none, routes));
  BOOST_TEST(!authenticate(*none));
  BOOST_TEST((code_of(none) == error_code::missing_api_key));
  auto malformed = request(bhttp::verb::get, "/v1/things/t_1", {{"X-Api-Key", "svc_live_short"}});
  BOOST_REQUIRE(match_route(*malformed, routes));
  BOOST_TEST(!authenticate(*malformed));
  BOOST_TEST((code_of(malformed) == error_code::invalid_api_key));
  auto unknown = request(bhttp::verb::get, "/v1/things/t_1", {{"Authorization", "Bearer " + unknown_key()}});
  BOOST_REQUIRE(match_route(*unknown, routes));
  BOOST_TEST(!authenticate(*unknown));
  BOOST_TEST((code_of(unknown) == error_code::invalid_api_key));
}

BOOST_AUTO_TEST_CASE(a_read_key_may_read_but_not_write) {
  auto key = std::make_shared<svc::schema::api_key_record>();
  key->key_scope = svc::schema::scope::read;
  auto reads = request(bhttp::verb::get, "/v1/things/t_1");
  BOOST_REQUIRE(match_route(*reads, routes));
  reads->key = key;
  BOOST_TEST(check_scope(*reads));
  auto writes = request(bhttp::verb::post, "/v1/things");
  BOOST_REQUIRE(match_route(*writes, routes));
  writes->key = key;
  BOOST_TEST(!check_scope(*writes));
  BOOST_TEST((code_of(writes) == error_code::missing_scope));
  BOOST_TEST(writes->error->message.find("write") != std::string::npos, writes->error->message);
}

// A team bucket that leaves every take in its mailbox, unanswered.
caf::behavior holding_bucket() {
  return {
    [](svc::actors::take_atom, svc::schema::bucket_class) -> caf::result<svc::actors::rate_decision> {
      return caf::skip;
    },
  };
}

BOOST_AUTO_TEST_CASE(a_team_bucket_that_dies_before_answering_is_503_unavailable) {
  auto ctx = request(bhttp::verb::get, "/v1/things/t_1");
  BOOST_REQUIRE(match_route(*ctx, routes));
  auto team = std::make_shared<svc::schema::team_record>();
  team->id = "team_relay";
  ctx->team = team;
  auto bucket = caf::actor_cast<svc::actors::bucket_actor>(svc::test::spawn_behavior(*sys, holding_bucket()));
  svc->buckets.put(team->id, bucket);
  bool went_on = false;
  take_rate_token(ctx, [&went_on](const context_ptr&) { went_on = true; });
  caf::anon_send_exit(bucket, caf::exit_reason::kill);
  BOOST_REQUIRE(answered());
  BOOST_TEST(!went_on);
  BOOST_TEST(answers->front().head.rfind("HTTP/1.1 503 ", 0) == 0, answers->front().head);
  BOOST_TEST(answers->front().body.find("\"unavailable\"") != std::string::npos, answers->front().body);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
