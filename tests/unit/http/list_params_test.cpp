#include "http/list_params.hpp"

#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <string>

#include "persistence/store_tables.hpp"
#include "services_fixture.hpp"

BOOST_AUTO_TEST_SUITE(http_list_params)

// reply_record_page over a real table: the list envelope of one page, and the
// 503 when the store cannot be read.

namespace {

using namespace svc::http;
namespace bhttp = boost::beast::http;

struct page_fixture : testing::services_fixture {
  page_fixture() {
    svc::persistence::write_batch b;
    for (auto slug : {"ant", "bee", "cat"}) {
      svc::schema::lora_record l;
      l.id = std::string{"t/"} + slug; // a prefix of the test's own: the runtime adds the built-in LoRAs
      l.slug = slug;
      svc->tables().loras.put(b, l.id, l);
    }
    BOOST_REQUIRE(env->commit(b).ok());
  }

  // The id of the record, as the list item.
  static boost::json::value id_view(const svc::schema::lora_record& l) { return boost::json::value(l.id); }

  boost::json::value page(const svc::persistence::scan_range& range, std::size_t limit) {
    auto n = answers->size() + 1;
    reply_record_page(request(bhttp::verb::get, "/v1/loras"), svc->tables().loras, range, limit, id_view);
    BOOST_REQUIRE(answered(n));
    auto& a = answers->back();
    BOOST_TEST(a.head.rfind("HTTP/1.1 200", 0) == 0u, a.head);
    return boost::json::parse(a.body);
  }
};

} // namespace

BOOST_FIXTURE_TEST_SUITE(record_page, page_fixture)

BOOST_AUTO_TEST_CASE(a_page_shows_each_record_in_the_ranges_order_and_says_if_more_follow) {
  svc::persistence::scan_range newest_first{"t/", "", true};
  auto first = page(newest_first, 2);
  BOOST_TEST(boost::json::serialize(first.at("data")) == R"(["t/cat","t/bee"])");
  BOOST_TEST(first.at("has_more").as_bool());
  svc::persistence::scan_range rest{"t/", "t/bee", true};
  auto second = page(rest, 2);
  BOOST_TEST(boost::json::serialize(second.at("data")) == R"(["t/ant"])");
  BOOST_TEST(!second.at("has_more").as_bool());
  BOOST_TEST(second.at("object").as_string() == "list");
}

BOOST_AUTO_TEST_CASE(a_store_that_fails_reads_is_answered_503) {
  env->fail_reads(true);
  reply_record_page(request(bhttp::verb::get, "/v1/loras"), svc->tables().loras, {}, 20, id_view);
  env->fail_reads(false);
  BOOST_REQUIRE(answered());
  BOOST_TEST(answers->at(0).head.rfind("HTTP/1.1 503", 0) == 0u, answers->at(0).head);
  BOOST_TEST(answers->at(0).body.find("\"storage_unavailable\"") != std::string::npos, answers->at(0).body);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
