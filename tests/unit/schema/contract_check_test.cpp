// The contract checker of the e2e client (tests/support/contract_check): it
// must catch what drifts (a wrong type, a missing field, an undocumented
// status, header or media type) and pass what conforms, on a small spec
// written here and on schema/openapi.yaml itself.
#include "contract_check.hpp"
#include "json_schema_check.hpp"
#include "openapi_document.hpp"

#include <boost/json/parse.hpp>
#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(schema_contract_check)

namespace {

using svc::test::contract;
using svc::test::contract_depth;
using svc::test::observed_answer;

using header_list = std::vector<std::pair<std::string, std::string>>;

const char* const small_spec = R"(
openapi: 3.1.0
info: {title: t, version: '1'}
servers:
  - url: http://127.0.0.1:8080/api
paths:
  /v1/things/{id}:
    get:
      responses:
        '200':
          description: A thing.
          headers:
            Req-Id: {$ref: '#/components/headers/ReqId'}
            Count: {required: true, schema: {type: integer, minimum: 0}}
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Thing'}
        4XX:
          description: An error.
          content:
            application/json:
              schema: {$ref: '#/components/schemas/Error'}
  /v1/things/special:
    post:
      responses:
        '204': {description: Done.}
  /legacy/{rest}:
    get:
      x-legacy-of: /v1/things/{rest}
      responses:
        '308': {description: Moved.}
components:
  responses:
    NotFound:
      description: No route.
      headers:
        Req-Id: {$ref: '#/components/headers/ReqId'}
      content:
        application/json:
          schema: {$ref: '#/components/schemas/Error'}
  headers:
    ReqId: {required: true, schema: {type: string, pattern: '^req_[0-9]+$'}}
  schemas:
    Thing:
      type: object
      required: [id, status, created_at]
      additionalProperties: false
      properties:
        id: {type: string}
        status: {type: string, enum: [queued, done]}
        created_at: {type: string, format: date-time}
        note: {type: [string, 'null']}
        size: {type: integer, nullable: true}
        tags: {type: array, items: {type: string}, maxItems: 2}
        shape:
          oneOf:
            - {type: object, required: [radius], properties: {radius: {type: number}}}
            - {type: object, required: [side], properties: {side: {type: number}}}
    Error:
      type: object
      required: [error]
      properties:
        error: {type: object, required: [code], properties: {code: {type: string}}}
)";

const header_list good_headers{{"Req-Id", "req_42"}, {"Count", "3"}, {"Content-Type", "application/json"}};

const contract& small() {
  static const contract c{svc::test::parse_yaml_as_json(small_spec)};
  return c;
}

std::optional<std::string> check(std::string_view method, std::string_view target, int status,
                                 const header_list& headers, std::string_view body,
                                 contract_depth depth = contract_depth::full) {
  return small().first_mismatch(observed_answer{method, target, status, headers, body}, depth);
}

std::optional<std::string> thing(std::string_view body) {
  return check("GET", "/api/v1/things/t1?x=1", 200, good_headers, body);
}

} // namespace

BOOST_AUTO_TEST_CASE(a_conforming_answer_passes) {
  auto m = thing(R"({"id":"t1","status":"queued","created_at":"2026-11-21T10:15:30.123Z","note":null,"size":null,)"
                 R"("tags":["a"],"shape":{"radius":1.5}})");
  BOOST_TEST(!m.has_value(), m.value_or(""));
}

BOOST_AUTO_TEST_CASE(a_wrong_type_is_caught) {
  auto m = thing(R"({"id":7,"status":"queued","created_at":"2026-11-21T10:15:30Z"})");
  BOOST_REQUIRE(m.has_value());
  BOOST_TEST(m->find("body/id") != std::string::npos, *m);
  BOOST_TEST(m->find("not of type") != std::string::npos, *m);
}

BOOST_AUTO_TEST_CASE(a_missing_required_field_is_caught) {
  auto m = thing(R"({"id":"t1","created_at":"2026-11-21T10:15:30Z"})");
  BOOST_REQUIRE(m.has_value());
  BOOST_TEST(m->find("required field status is missing") != std::string::npos, *m);
}

BOOST_AUTO_TEST_CASE(an_undocumented_status_is_caught) {
  auto m = check("GET", "/api/v1/things/t1", 500, good_headers, R"({"error":{"code":"x"}})");
  BOOST_REQUIRE(m.has_value());
  BOOST_TEST(m->find("status 500 is not documented for get /v1/things/{id}") != std::string::npos, *m);
  // A range key documents every status of its class.
  BOOST_TEST(!check("GET", "/api/v1/things/t1", 404, good_headers, R"({"error":{"code":"x"}})"));
}

BOOST_AUTO_TEST_CASE(values_outside_the_schema_are_caught) {
  auto base = std::string{R"({"id":"t1","created_at":"2026-11-21T10:15:30Z",)"};
  BOOST_TEST(thing(base + R"("status":"queud"})").value_or("").find("is not one of") != std::string::npos);
  BOOST_TEST(thing(base + R"("status":"done","extra":1})").value_or("").find("additionalProperties") != std::string::npos);
  BOOST_TEST(thing(base + R"("status":"done","tags":["a","b","c"]})").value_or("").find("maxItems") != std::string::npos);
  BOOST_TEST(thing(base + R"("status":"done","shape":{"radius":1,"side":2}})").value_or("").find("oneOf") != std::string::npos);
  BOOST_TEST(thing(base + R"("status":"done","size":1.5})").value_or("").find("not of type") != std::string::npos);
  auto bad_time = thing(R"({"id":"t1","status":"done","created_at":"yesterday"})");
  BOOST_TEST(bad_time.value_or("").find("is not a date-time") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(headers_and_media_types_are_checked) {
  auto body = R"({"id":"t1","status":"done","created_at":"2026-11-21T10:15:30Z"})";
  header_list no_id{{"Count", "3"}, {"Content-Type", "application/json"}};
  BOOST_TEST(check("GET", "/api/v1/things/t1", 200, no_id, body).value_or("").find("Req-Id is missing") != std::string::npos);
  header_list bad_count{{"Req-Id", "req_1"}, {"Count", "many"}, {"Content-Type", "application/json"}};
  BOOST_TEST(check("GET", "/api/v1/things/t1", 200, bad_count, body).value_or("").find("header Count") != std::string::npos);
  header_list bad_id{{"Req-Id", "r1"}, {"Count", "3"}, {"Content-Type", "application/json"}};
  BOOST_TEST(check("GET", "/api/v1/things/t1", 200, bad_id, body).value_or("").find("header Req-Id") != std::string::npos);
  header_list html{{"Req-Id", "req_1"}, {"Count", "3"}, {"Content-Type", "text/html; charset=utf-8"}};
  BOOST_TEST(check("GET", "/api/v1/things/t1", 200, html, body).value_or("").find("text/html") != std::string::npos);
  BOOST_TEST(check("GET", "/api/v1/things/t1", 200, good_headers, "not json").value_or("").find("not JSON") != std::string::npos);
  // Raw bytes: status and media type only, the body is not parsed.
  BOOST_TEST(!check("GET", "/api/v1/things/t1", 200, good_headers, "not json", contract_depth::status_and_type));
  // HEAD answers the GET operation's status and headers without a body.
  BOOST_TEST(!check("HEAD", "/api/v1/things/t1", 200, good_headers, ""));
}

BOOST_AUTO_TEST_CASE(paths_match_their_templates) {
  BOOST_TEST(small().path_template("/api/v1/things/special").value_or("") == "/v1/things/special");
  BOOST_TEST(small().path_template("/api/v1/things/t9").value_or("") == "/v1/things/{id}");
  BOOST_TEST(small().path_template("/api/legacy/a/b/c").value_or("") == "/legacy/{rest}");
  BOOST_TEST(!small().path_template("/api/v1/things/t9/more").has_value());
  BOOST_TEST(!small().path_template("/v1/things/t9").has_value(), "the server's base path is required");
  header_list none;
  BOOST_TEST(!check("POST", "/api/v1/things/special", 204, none, ""));
  BOOST_TEST(check("POST", "/api/v1/things/special", 204, none, "x").value_or("").find("documents none") != std::string::npos);
  BOOST_TEST(check("DELETE", "/api/v1/nowhere", 500, none, "").value_or("").find("no operation") != std::string::npos);
}

// An unknown path belongs to no operation: its 404 takes the shared NotFound response, body and media type
// checked, headers not (the admin listener answers it without the public listener's headers).
BOOST_AUTO_TEST_CASE(routing_answers_take_the_shared_responses) {
  header_list json{{"Content-Type", "application/json"}};
  auto m = check("GET", "/api/v1/nowhere", 404, json, R"({"error":{"code":"route_not_found"}})");
  BOOST_TEST(!m.has_value(), m.value_or(""));
  BOOST_TEST(check("GET", "/api/v1/nowhere", 404, json, R"({"code":"route_not_found"})").value_or("").find("required field error") != std::string::npos);
}

// The real contract: a record of the catalogue that lost a field no longer passes.
BOOST_AUTO_TEST_CASE(the_real_spec_loads_and_checks_errors) {
  contract real{svc::test::load_yaml_as_json(SVC_OPENAPI_PATH)};
  BOOST_TEST(real.path_template("/v1/images/estimate").value_or("") == "/v1/images/estimate");
  BOOST_TEST(real.path_template("/v1/images/img_01KAK3R5N2W9X7Q4V6B8C0D1EF").value_or("") == "/v1/images/{id}");
  auto& error_schema = real.document().at("components").at("schemas").at("Error");
  auto complete = boost::json::parse(R"({"error":{"type":"invalid_request","code":"route_not_found",)"
                                     R"("message":"No route.","request_id":"req_01KAK3R5N2W9X7Q4V6B8C0D1EF",)"
                                     R"("doc_url":"http://127.0.0.1:8080/docs/errors#route_not_found"}})");
  auto m = svc::test::schema_mismatch(real.document(), error_schema, complete);
  BOOST_TEST(!m.has_value(), m.value_or(""));
  complete.at("error").as_object().erase("request_id");
  BOOST_TEST(svc::test::schema_mismatch(real.document(), error_schema, complete).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
