// The spec compiled into svcd is schema/openapi.yaml byte for byte, and the
// /docs page rendered from it lists every operation with its method, path,
// summary and responses, self-contained.
#include "schema/api_reference.hpp"

#include "openapi_document.hpp"
#include "schema/html_escape.hpp"

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

BOOST_AUTO_TEST_SUITE(schema_api_reference)

namespace {

std::string file_bytes(const char* path) {
  std::ifstream in{path, std::ios::binary};
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

std::string upper(std::string s) {
  for (auto& c : s)
    c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return s;
}

} // namespace

BOOST_AUTO_TEST_CASE(the_compiled_in_spec_is_the_file) {
  BOOST_TEST(svc::schema::openapi_yaml() == file_bytes(SVC_OPENAPI_PATH));
}

BOOST_AUTO_TEST_CASE(the_page_lists_every_operation_under_its_tag) {
  auto spec = svc::test::load_yaml_as_json(SVC_OPENAPI_PATH);
  std::string html{svc::schema::api_reference_html()};
  std::size_t operations = 0;
  for (auto& [path, item] : spec.at("paths").as_object())
    for (auto& [method, op] : item.as_object()) {
      if (!op.is_object() || !op.as_object().contains("responses"))
        continue;
      ++operations;
      auto& o = op.as_object();
      std::string id{o.at("operationId").as_string()};
      auto at = html.find("<article id=\"" + id + "\">");
      BOOST_TEST_REQUIRE(at != std::string::npos, id << " has no section");
      auto end = html.find("</article>", at);
      auto section = html.substr(at, end - at);
      BOOST_TEST(section.find(upper(std::string{method}) + "</span> <code>" + std::string{path} + "</code>")
                   != std::string::npos, id);
      BOOST_TEST(section.find(svc::schema::escape_html(std::string{o.at("summary").as_string()}))
                   != std::string::npos, id);
      for (auto& [status, response] : o.at("responses").as_object())
        BOOST_TEST(section.find("<tr><td>" + std::string{status} + "</td>") != std::string::npos, id << " " << status);
      std::string tag{o.at("tags").at(0).as_string()};
      auto tag_at = html.rfind("<section id=\"tag-", at);
      BOOST_TEST(html.compare(tag_at, 17 + tag.size() + 2, "<section id=\"tag-" + tag + "\">") == 0, id);
    }
  BOOST_TEST(operations > 50u);
}

BOOST_AUTO_TEST_CASE(the_page_is_self_contained) {
  std::string html{svc::schema::api_reference_html()};
  BOOST_TEST(html.rfind("<!doctype html>", 0) == 0u);
  BOOST_TEST(html.find("<script") == std::string::npos);
  BOOST_TEST(html.find("src=") == std::string::npos);
  BOOST_TEST(html.find("<link") == std::string::npos);
  BOOST_TEST(html.find("href=\"http") == std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
