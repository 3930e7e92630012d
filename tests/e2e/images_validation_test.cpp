// Refused creates: unknown fields (400 unknown_parameter), wrong types and
// out-of-range values (400 invalid_parameter), each naming error.param;
// bodies that are not JSON objects (400 invalid_body, 415); and 402
// insufficient_credits. None of them creates a job or holds credits.
#include <boost/test/unit_test.hpp>

#include <boost/json/serialize.hpp>

#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_validation)

using namespace svc::e2e;
namespace json = boost::json;

namespace {

json::object with(json::object body, std::string_view field, json::value v) {
  body[field] = std::move(v);
  return body;
}

json::object without_prompt() {
  auto b = image_body();
  b.erase("prompt");
  return b;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(images_validation, server_fixture)

BOOST_AUTO_TEST_CASE(each_refused_field_is_named_in_param) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  struct {
    json::object body;
    std::string code, param;
  } cases[] = {
    {with(image_body(), "colour", "red"), "unknown_parameter", "colour"},
    {with(image_body(), "modell", json::value(nullptr)), "unknown_parameter", "modell"},
    {with(image_body(), "model", "no-such-model"), "invalid_parameter", "model"},
    {with(image_body(), "model", "procedural-video"), "invalid_parameter", "model"},
    {with(image_body(), "model", 7), "invalid_parameter", "model"},
    {image_body("x", 100, 256), "invalid_parameter", "width"},
    {image_body("x", 256, 300), "invalid_parameter", "height"},
    {image_body("x", 4096, 256), "invalid_parameter", "width"},
    {image_body("x", 192, 256), "invalid_parameter", "width"},
    {with(image_body(), "width", "512"), "invalid_parameter", "width"},
    {with(image_body(), "width", 512.5), "invalid_parameter", "width"},
    {without_prompt(), "invalid_parameter", "prompt"},
    {image_body(""), "invalid_parameter", "prompt"},
    {image_body(std::string(4001, 'a')), "invalid_parameter", "prompt"},
    {with(image_body(), "prompt", 42), "invalid_parameter", "prompt"},
    {with(image_body(), "num_outputs", 0), "invalid_parameter", "num_outputs"},
    {with(image_body(), "num_outputs", 5), "invalid_parameter", "num_outputs"},
    {with(image_body(), "steps", 0), "invalid_parameter", "steps"},
    {with(image_body(), "steps", 101), "invalid_parameter", "steps"},
    {with(image_body(), "seed", -1), "invalid_parameter", "seed"},
    {with(image_body(), "seed", 4294967296LL), "invalid_parameter", "seed"},
    {with(image_body(), "negative_prompt", 1), "invalid_parameter", "negative_prompt"},
    {with(image_body(), "init_image", "img_00000000000000000000000000"), "invalid_parameter", "init_image"},
    {with(image_body(), "init_image", "file_00000000000000000000000000"), "invalid_parameter", "init_image"},
    {with(image_body(), "metadata", "text"), "invalid_parameter", "metadata"},
  };
  for (auto& k : cases) {
    auto text = json::serialize(k.body);
    BOOST_TEST_CONTEXT(text.substr(0, 200)) {
      auto r = create_image(c, t.write.key, k.body);
      BOOST_TEST(is_error(r, 400, k.code), r.summary());
      BOOST_TEST(json_str(r.json(), "error.param") == k.param);
      BOOST_TEST(json_str(r.json(), "error.type") == "invalid_request");
      BOOST_TEST(json_str(r.json(), "error.request_id") == r.header_or_empty("Svc-Request-Id"));
    }
  }
  BOOST_TEST(list_image_ids(c, t.read.key).empty(), "nothing was created");
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1000);
  BOOST_TEST(b.held == 0);
}

BOOST_AUTO_TEST_CASE(bounds_themselves_are_accepted) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto body = image_body(std::string(4000, 'a'), 256, 2048);
  body["seed"] = 4294967295LL;
  body["steps"] = 1;
  body["metadata"] = json::object{{"order", "A-17"}};
  auto r = create_image(c, t.write.key, body);
  BOOST_REQUIRE_MESSAGE(r.status == 201, r.summary());
  BOOST_TEST(json_int(r.json(), "seed") == 4294967295LL);
  BOOST_TEST(json_str(r.json(), "metadata.order") == "A-17");
  BOOST_TEST(json_int(r.json(), "height") == 2048);
  // Without a seed one is drawn and echoed.
  auto drawn = create_image_ok(c, t.write.key, image_body());
  BOOST_TEST(json_int(drawn, "seed").has_value());
  BOOST_TEST(json_int(drawn, "width") == 256);
  auto defaults = create_image_ok(c, t.write.key, json::object{{"prompt", "defaults"}});
  BOOST_TEST(json_int(defaults, "width") == 1024);
  BOOST_TEST(json_int(defaults, "height") == 1024);
  BOOST_TEST(json_int(defaults, "num_outputs") == 1);
  BOOST_TEST(json_int(defaults, "steps") == 30);
}

BOOST_AUTO_TEST_CASE(bodies_that_are_not_a_json_object_are_refused) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  for (std::string body : {"{not json", "[]", "\"prompt\"", "null", "{\"prompt\": \"x\"} trailing"}) {
    BOOST_TEST_CONTEXT("body '" << body << "'") {
      auto r = c.request("POST", "/v1/images", with_key(t.write.key, {{"Content-Type", "application/json"}}), body);
      BOOST_TEST(is_error(r, 400, "invalid_body"), r.summary());
    }
  }
  // No body at all is not JSON either (not an empty object missing its prompt),
  // on every create and update route.
  for (auto [method, path] : {std::pair{"POST", "/v1/images"}, std::pair{"POST", "/v1/videos"},
                              std::pair{"POST", "/v1/images/estimate"}, std::pair{"POST", "/v1/webhook_endpoints"},
                              std::pair{"PATCH", "/v1/team"}})
    for (std::string body : {"", "  \r\n"})
      BOOST_TEST_CONTEXT(method << " " << path << " with body '" << body << "'") {
        auto key = std::string{path} == "/v1/team" ? t.full.key : t.write.key;
        auto empty = c.request(method, path, with_key(key, {{"Content-Type", "application/json"}}), body);
        BOOST_TEST(is_error(empty, 400, "invalid_body"), empty.summary());
        auto bare = c.request(method, path, with_key(key), body);
        BOOST_TEST(is_error(bare, 400, "invalid_body"), bare.summary());
      }
  auto text = c.request("POST", "/v1/images", with_key(t.write.key, {{"Content-Type", "text/plain"}}),
                        "{\"prompt\": \"x\"}");
  BOOST_TEST(is_error(text, 415, "unsupported_media_type"), text.summary());
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
}

BOOST_AUTO_TEST_CASE(insufficient_credits_is_402_with_nothing_created_or_held) {
  auto t = create_team_with_keys(4);
  auto c = api();
  auto big = create_image(c, t.write.key, image_body("x", 1280, 1024));
  BOOST_TEST(is_error(big, 402, "insufficient_credits"), big.summary());
  BOOST_TEST(big.header_or_empty("Location").empty());
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
  auto b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 4);
  BOOST_TEST(b.held == 0);

  // 3 of the 4 credits fit once; the next create is refused while that one is held.
  auto fits = create_image_ok(c, t.write.key, image_body());
  BOOST_TEST(json_int(fits, "cost.credits") == 3);
  auto next = create_image(c, t.write.key, image_body());
  BOOST_TEST(is_error(next, 402, "insufficient_credits"), next.summary());
  BOOST_TEST(list_image_ids(c, t.read.key) == std::vector<std::string>{json_str(fits, "id")});
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, json_str(fits, "id")), "status") == "succeeded");
  b = get_balance(c, t.read.key);
  BOOST_TEST(b.available == 1);
  BOOST_TEST(b.held == 0);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
