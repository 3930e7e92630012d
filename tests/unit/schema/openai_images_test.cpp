#include "schema/openai_images.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include "schema/generation_request.hpp"

BOOST_AUTO_TEST_SUITE(schema_openai_images)

using namespace svc::schema;
namespace json = boost::json;

namespace {

// The mapped body of an OpenAI request that must be read.
json::object mapped(const json::object& body) {
  auto r = read_openai_image_request(body);
  BOOST_TEST_REQUIRE(static_cast<bool>(r), (r ? std::string{} : r.error().message));
  return r.value().svc_body;
}

void check_refused(const json::object& body, const std::string& param) {
  auto r = read_openai_image_request(body);
  BOOST_TEST_REQUIRE(!r);
  BOOST_TEST((r.error().code == error_code::invalid_parameter));
  BOOST_TEST(r.error().param == param);
}

} // namespace

BOOST_AUTO_TEST_CASE(openai_fields_become_a_create_body_and_the_rest_is_ignored) {
  auto body = mapped({{"prompt", "a fox"}, {"n", 2}, {"size", "512x768"}, {"model", "m"}, {"quality", "hd"},
                      {"style", "vivid"}, {"user", "u-1"}, {"response_format", "url"}});
  BOOST_TEST(body == (json::object{{"prompt", "a fox"}, {"model", "m"}, {"num_outputs", 2}, {"width", 512},
                                   {"height", 768}}));
  BOOST_TEST(static_cast<bool>(validate_image_request(body)));
  // `auto` and null leave the model's defaults; what the create judges passes through as sent.
  BOOST_TEST(mapped({{"prompt", "a fox"}, {"size", "auto"}}) == (json::object{{"prompt", "a fox"}}));
  BOOST_TEST(mapped({{"prompt", "a fox"}, {"size", nullptr}, {"n", "two"}})
             == (json::object{{"prompt", "a fox"}, {"num_outputs", "two"}}));
}

BOOST_AUTO_TEST_CASE(response_format_defaults_to_url) {
  BOOST_TEST((read_openai_image_request({{"prompt", "x"}}).value().format == openai_format::url));
  BOOST_TEST((read_openai_image_request({{"prompt", "x"}, {"response_format", nullptr}}).value().format
              == openai_format::url));
  BOOST_TEST((read_openai_image_request({{"prompt", "x"}, {"response_format", "b64_json"}}).value().format
              == openai_format::b64_json));
  check_refused({{"prompt", "x"}, {"response_format", "png"}}, "response_format");
  check_refused({{"prompt", "x"}, {"response_format", 1}}, "response_format");
}

BOOST_AUTO_TEST_CASE(sizes_that_spell_no_width_and_height_are_refused) {
  for (auto* size : {"1024", "x1024", "1024x", "1024x1024x2", "0x512", "-512x512", "512 x 512", "big", ""})
    BOOST_TEST_CONTEXT(size) { check_refused({{"prompt", "x"}, {"size", size}}, "size"); }
  check_refused({{"prompt", "x"}, {"size", 1024}}, "size");
  check_refused({{"prompt", "x"}, {"size", "99999999999x512"}}, "size");
}

BOOST_AUTO_TEST_CASE(only_a_stream_that_is_off_is_taken) {
  mapped({{"prompt", "x"}, {"stream", false}});
  check_refused({{"prompt", "x"}, {"stream", true}}, "stream");
  check_refused({{"prompt", "x"}, {"stream", "false"}}, "stream");
}

BOOST_AUTO_TEST_CASE(form_fields_get_the_types_json_would_give_them) {
  auto fields = openai_form_fields({{"n", "3"}, {"stream", "false"}, {"prompt", "12"}, {"size", "256x256"}});
  BOOST_TEST(fields == (json::object{{"n", 3}, {"prompt", "12"}, {"size", "256x256"}, {"stream", false}}));
  // What spells no integer or boolean stays text, for the create's rules to refuse.
  BOOST_TEST(openai_form_fields({{"n", "2.5"}, {"stream", "yes"}})
             == (json::object{{"n", "2.5"}, {"stream", "yes"}}));
}

BOOST_AUTO_TEST_CASE(create_errors_are_told_in_openai_fields) {
  auto width = validate_image_request(mapped({{"prompt", "x"}, {"size", "100x256"}}));
  BOOST_TEST_REQUIRE(!width);
  auto e = as_openai_error(width.error());
  BOOST_TEST(e.param == "size");
  BOOST_TEST(e.message == "Invalid value for 'size' (width): must be a multiple of 64 between 256 and 2048.");
  auto n = validate_image_request(mapped({{"prompt", "x"}, {"n", 5}}));
  BOOST_TEST_REQUIRE(!n);
  BOOST_TEST(as_openai_error(n.error()).param == "n");
  BOOST_TEST(as_openai_error(n.error()).message.rfind("Invalid value for 'n': ", 0) == 0u);
  auto prompt = make_api_error(error_code::invalid_parameter, {{"detail", "is required"}}, "prompt");
  BOOST_TEST(as_openai_error(prompt).message == prompt.message);
  BOOST_TEST(as_openai_error(prompt).param == "prompt");
}

BOOST_AUTO_TEST_CASE(the_answer_has_openais_shape) {
  json::array urls{json::object{{"url", "http://a/0"}}, json::object{{"url", "http://a/1"}}};
  BOOST_TEST(openai_images_view(1700000000, {"http://a/0", "http://a/1"}, openai_format::url)
             == (json::object{{"created", 1700000000}, {"data", urls}}));
  BOOST_TEST(openai_images_view(1, {"iVBORw0KGgo="}, openai_format::b64_json)
             == (json::object{{"created", 1}, {"data", json::array{json::object{{"b64_json", "iVBORw0KGgo="}}}}}));
}

BOOST_AUTO_TEST_SUITE_END()
