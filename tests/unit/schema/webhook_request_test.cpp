#include "schema/webhook_request.hpp"

#include <boost/test/unit_test.hpp>

#include "core/time_format.hpp"
#include "request_test_support.hpp"
#include "schema/event_types.hpp"

BOOST_AUTO_TEST_SUITE(schema_webhook_request)

using namespace svc::schema::testing;

namespace {

const std::vector<std::string> completed_only{"image.completed"};

webhook_endpoint_request create_ok(std::string_view text) {
  auto r = validate_webhook_endpoint_create(obj(text));
  BOOST_REQUIRE_MESSAGE(r, std::string{text} << " rejected: " << (r ? "" : r.error().message));
  return r.value();
}

webhook_endpoint_update update_ok(std::string_view text) {
  auto r = validate_webhook_endpoint_update(obj(text));
  BOOST_REQUIRE_MESSAGE(r, std::string{text} << " rejected: " << (r ? "" : r.error().message));
  return r.value();
}

void create_rejects(std::string_view text, std::string_view param, error_code code = error_code::invalid_parameter) {
  BOOST_TEST_CONTEXT(text) { expect_error(validate_webhook_endpoint_create(obj(text)), code, param); }
}

void update_rejects(std::string_view text, std::string_view param, error_code code = error_code::invalid_parameter) {
  BOOST_TEST_CONTEXT(text) { expect_error(validate_webhook_endpoint_update(obj(text)), code, param); }
}

svc::core::time_point at(std::string_view iso) { return *svc::core::parse_iso8601(iso); }

} // namespace

BOOST_AUTO_TEST_SUITE(create)

BOOST_AUTO_TEST_CASE(url_and_events_are_kept_as_given) {
  auto r = create_ok(R"({"url": "https://hooks.example.com/svc?x=1", "events": ["video.failed", "image.completed"]})");
  BOOST_TEST(r.url == "https://hooks.example.com/svc?x=1");
  BOOST_TEST(r.events == (std::vector<std::string>{"video.failed", "image.completed"}));
  BOOST_TEST(r.metadata.empty());
}

BOOST_AUTO_TEST_CASE(the_wildcard_expands_to_every_v1_type) {
  auto r = create_ok(R"({"url": "https://h.example/", "events": ["*"]})");
  BOOST_TEST(r.events == event_types());
  BOOST_TEST(r.events.size() == 8u);
}

BOOST_AUTO_TEST_CASE(metadata_follows_the_generation_rules) {
  auto r = create_ok(R"({"url": "https://h.example/", "events": ["*"], "metadata": {"env": "prod", "team": "a"}})");
  BOOST_TEST(r.metadata.size() == 2u);
  BOOST_TEST(r.metadata.at("env") == "prod");
  create_ok(R"({"url": "https://h.example/", "events": ["*"], "metadata": null})");

  json::object too_many;
  for (int i = 0; i < 21; ++i)
    too_many["k" + std::to_string(i)] = "v";
  json::object body{{"url", "https://h.example/"}, {"events", json::array{"*"}}, {"metadata", too_many}};
  expect_error(validate_webhook_endpoint_create(body), error_code::invalid_parameter, "metadata");
  body["metadata"] = json::object{{repeat("k", 41), "v"}};
  expect_error(validate_webhook_endpoint_create(body), error_code::invalid_parameter, "metadata");
  body["metadata"] = json::object{{"note", repeat("v", 501)}};
  expect_error(validate_webhook_endpoint_create(body), error_code::invalid_parameter, "metadata.note");
  body["metadata"] = json::object{{"n", 5}};
  expect_error(validate_webhook_endpoint_create(body), error_code::invalid_parameter, "metadata.n");
  body["metadata"] = json::object{{repeat("k", 40), repeat("v", 500)}};
  BOOST_TEST(static_cast<bool>(validate_webhook_endpoint_create(body)));
}

BOOST_AUTO_TEST_CASE(url_is_a_bounded_string) {
  create_rejects(R"({"events": ["*"]})", "url");
  create_rejects(R"({"url": null, "events": ["*"]})", "url");
  create_rejects(R"({"url": "", "events": ["*"]})", "url");
  create_rejects(R"({"url": 42, "events": ["*"]})", "url");
  json::object body{{"url", "https://h.example/" + repeat("a", 2048)}, {"events", json::array{"*"}}};
  expect_error(validate_webhook_endpoint_create(body), error_code::invalid_parameter, "url");
}

BOOST_AUTO_TEST_CASE(events_are_a_non_empty_list_of_unique_v1_types) {
  create_rejects(R"({"url": "https://h.example/"})", "events");
  create_rejects(R"({"url": "https://h.example/", "events": []})", "events");
  create_rejects(R"({"url": "https://h.example/", "events": "image.completed"})", "events");
  create_rejects(R"({"url": "https://h.example/", "events": ["image.completed", "image.exploded"]})", "events[1]");
  create_rejects(R"({"url": "https://h.example/", "events": ["image.expired"]})", "events[0]");
  create_rejects(R"({"url": "https://h.example/", "events": ["Image.Completed"]})", "events[0]");
  create_rejects(R"({"url": "https://h.example/", "events": [7]})", "events[0]");
  create_rejects(R"({"url": "https://h.example/", "events": ["image.failed", "image.failed"]})", "events[1]");
  create_rejects(R"({"url": "https://h.example/", "events": ["*", "image.failed"]})", "events[0]");
  create_rejects(R"({"url": "https://h.example/", "events": ["image.failed", "*"]})", "events[1]");
  create_rejects(R"({"url": "https://h.example/", "events": ["*", "*"]})", "events[0]");
}

BOOST_AUTO_TEST_CASE(unknown_fields_are_reported_first) {
  create_rejects(R"({"url": 1, "events": [], "is_active": false})", "is_active", error_code::unknown_parameter);
  create_rejects(R"({"enabled_events": ["*"], "url": "https://h.example/"})", "enabled_events",
                 error_code::unknown_parameter);
}

BOOST_AUTO_TEST_CASE(the_first_bad_field_in_documented_order_is_named) {
  create_rejects(R"({"metadata": 1, "events": [], "url": ""})", "url");
  create_rejects(R"({"metadata": 1, "events": [], "url": "https://h.example/"})", "events");
  create_rejects(R"({"metadata": 1, "events": ["*"], "url": "https://h.example/"})", "metadata");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(update)

BOOST_AUTO_TEST_CASE(only_the_fields_given_are_set) {
  auto u = update_ok(R"({"is_active": true})");
  BOOST_TEST((u.is_active == std::optional<bool>{true}));
  BOOST_TEST(!u.url);
  BOOST_TEST(!u.events);
  BOOST_TEST(!u.metadata);

  u = update_ok(R"({"url": "https://new.example/h", "events": ["image.completed"], "metadata": {"a": "b"},
                    "is_active": false})");
  BOOST_TEST(*u.url == "https://new.example/h");
  BOOST_TEST(*u.events == completed_only);
  BOOST_TEST(u.metadata->at("a") == "b");
  BOOST_TEST((u.is_active == std::optional<bool>{false}));
}

BOOST_AUTO_TEST_CASE(wildcard_and_empty_metadata) {
  BOOST_TEST(*update_ok(R"({"events": ["*"]})").events == event_types());
  auto cleared = update_ok(R"({"metadata": {}})");
  BOOST_REQUIRE(cleared.metadata.has_value());
  BOOST_TEST(cleared.metadata->empty(), "an empty object clears the metadata");
}

BOOST_AUTO_TEST_CASE(bad_values_are_named) {
  update_rejects(R"({"is_active": "yes"})", "is_active");
  update_rejects(R"({"is_active": 1})", "is_active");
  update_rejects(R"({"url": ""})", "url");
  update_rejects(R"({"events": []})", "events");
  update_rejects(R"({"events": ["nope"]})", "events[0]");
  update_rejects(R"({"metadata": []})", "metadata");
  update_rejects(R"({"secret": "whsec_x"})", "secret", error_code::unknown_parameter);
  update_rejects(R"({"is_active": true, "id": "we_x"})", "id", error_code::unknown_parameter);
}

BOOST_AUTO_TEST_CASE(an_update_names_at_least_one_field) {
  for (auto text : {R"({})", R"({"url": null})", R"({"is_active": null, "metadata": null})"}) {
    BOOST_TEST_CONTEXT(text) {
      auto r = validate_webhook_endpoint_update(obj(text));
      BOOST_REQUIRE(!r);
      BOOST_TEST(to_string(r.error().code) == "invalid_parameter");
      BOOST_TEST(r.error().param.empty(), "no single field is at fault");
      BOOST_TEST(r.error().message.find("at least one of url, events, metadata, is_active") != std::string::npos,
                 r.error().message);
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(actions)

BOOST_AUTO_TEST_CASE(test_fire_takes_one_v1_type) {
  for (auto& type : event_types()) {
    auto r = validate_test_fire_request(json::object{{"event_type", type}});
    BOOST_REQUIRE(r);
    BOOST_TEST(r.value() == type);
  }
  expect_error(validate_test_fire_request(obj("{}")), error_code::invalid_parameter, "event_type");
  expect_error(validate_test_fire_request(obj(R"({"event_type": "image.expired"})")), error_code::invalid_parameter,
               "event_type");
  expect_error(validate_test_fire_request(obj(R"({"event_type": ["image.failed"]})")),
               error_code::invalid_parameter, "event_type");
  expect_error(validate_test_fire_request(obj(R"({"event_type": "image.failed", "x": 1})")),
               error_code::unknown_parameter, "x");
}

BOOST_AUTO_TEST_CASE(replay_takes_a_past_utc_timestamp) {
  auto now = at("2026-03-01T12:00:00.000Z");
  auto r = validate_replay_request(obj(R"({"since": "2026-03-01T11:00:00Z"})"), now);
  BOOST_REQUIRE(r);
  BOOST_TEST((r.value() == at("2026-03-01T11:00:00.000Z")));
  BOOST_TEST(static_cast<bool>(validate_replay_request(obj(R"({"since": "2026-03-01T12:00:00.000Z"})"), now)),
             "now itself is not the future");
  BOOST_TEST(static_cast<bool>(validate_replay_request(obj(R"({"since": "2026-02-01T00:00:00+00:00"})"), now)));

  for (auto text : {R"({})", R"({"since": null})", R"({"since": 1767225600})", R"({"since": "yesterday"})",
                    R"({"since": "2026-03-01"})", R"({"since": "2026-03-01T11:00:00+02:00"})",
                    R"({"since": "2026-03-01T12:00:00.001Z"})", R"({"since": "2999-01-01T00:00:00Z"})",
                    R"({"since": "9999-12-31T23:59:59Z"})"}) {
    BOOST_TEST_CONTEXT(text) {
      expect_error(validate_replay_request(obj(text), now), error_code::invalid_parameter, "since");
    }
  }
  expect_error(validate_replay_request(obj(R"({"since": "2026-03-01T11:00:00Z", "until": "x"})"), now),
               error_code::unknown_parameter, "until");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
