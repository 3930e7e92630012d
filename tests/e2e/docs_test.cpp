// The contract served by svcd itself: GET /openapi.yaml answers the bytes of
// schema/openapi.yaml as compiled in, GET /docs the reference page rendered
// from them; neither needs a key.
#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>
#include <string>

#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_docs)

using namespace svc::e2e;

namespace {

std::string source_spec() {
  std::ifstream in{SVC_OPENAPI_PATH, std::ios::binary};
  BOOST_REQUIRE_MESSAGE(in, "cannot read " SVC_OPENAPI_PATH);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(docs, server_fixture)

BOOST_AUTO_TEST_CASE(the_spec_is_served_byte_for_byte_without_a_key) {
  auto r = api().get("/openapi.yaml");
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type") == "application/yaml");
  BOOST_TEST(r.body == source_spec());
  auto head = api().request("HEAD", "/openapi.yaml");
  BOOST_TEST(head.status == 200);
  BOOST_TEST(head.header_or_empty("Content-Length") == std::to_string(r.body.size()));
}

BOOST_AUTO_TEST_CASE(the_reference_page_is_served_without_a_key) {
  auto r = api().get("/docs");
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type") == "text/html; charset=utf-8");
  BOOST_TEST(r.body.rfind("<!doctype html>", 0) == 0u);
  BOOST_TEST(r.body.find("<span class=\"m\">POST</span> <code>/v1/images</code>") != std::string::npos);
  BOOST_TEST(r.body.find("<article id=\"getApiReference\">") != std::string::npos);
  BOOST_TEST(r.body.find("<section id=\"tag-webhooks\">") != std::string::npos);
  BOOST_TEST(r.body.find("<script") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(both_answer_only_get_and_head) {
  auto r = api().request("POST", "/openapi.yaml", {}, "x");
  BOOST_TEST(r.status == 405, r.summary());
  BOOST_TEST(r.header_or_empty("Allow") == "GET");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
