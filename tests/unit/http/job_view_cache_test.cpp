#include "http/job_view_cache.hpp"

#include <boost/test/unit_test.hpp>

BOOST_AUTO_TEST_SUITE(http_job_view_cache)

namespace {

using svc::http::job_view_cache;
using svc::schema::job_status;

job_view_cache::view view_of(std::string team, job_status s, std::string body) {
  return {std::move(team), s, std::move(body)};
}

} // namespace

BOOST_AUTO_TEST_CASE(a_view_is_found_only_for_the_bytes_it_was_made_from) {
  job_view_cache cache;
  BOOST_TEST(!cache.find("img_1", "stored-v1"));
  cache.put("img_1", "stored-v1", view_of("team_a", job_status::processing, R"({"progress":0.1})"));
  auto hit = cache.find("img_1", "stored-v1");
  BOOST_REQUIRE(hit);
  BOOST_TEST(hit->team_id == "team_a");
  BOOST_TEST((hit->status == job_status::processing));
  BOOST_TEST(hit->body == R"({"progress":0.1})");
  // The job was written since: the same id with other bytes is a miss.
  BOOST_TEST(!cache.find("img_1", "stored-v2"));
  BOOST_TEST(!cache.find("img_1", "stored-v"));  // a prefix is other bytes too
  BOOST_TEST(!cache.find("img_2", "stored-v1")); // another job with equal bytes
}

BOOST_AUTO_TEST_CASE(a_newer_view_replaces_the_older_one) {
  job_view_cache cache;
  cache.put("img_1", "v1", view_of("team_a", job_status::processing, "old"));
  cache.put("img_1", "v2", view_of("team_a", job_status::succeeded, "new"));
  BOOST_TEST(cache.size() == 1u);
  BOOST_TEST(!cache.find("img_1", "v1"));
  BOOST_REQUIRE(cache.find("img_1", "v2"));
  BOOST_TEST(cache.find("img_1", "v2")->body == "new");
}

BOOST_AUTO_TEST_CASE(a_full_cache_starts_over_and_views_in_use_stay_valid) {
  job_view_cache cache{3};
  for (int i = 0; i < 3; ++i)
    cache.put("img_" + std::to_string(i), "s", view_of("t", job_status::succeeded, "body" + std::to_string(i)));
  auto held = cache.find("img_0", "s");
  BOOST_REQUIRE(held);
  cache.put("img_0", "s2", view_of("t", job_status::succeeded, "replaced")); // a replacement needs no room
  BOOST_TEST(cache.size() == 3u);
  cache.put("img_3", "s", view_of("t", job_status::succeeded, "body3"));
  BOOST_TEST(cache.size() == 1u);
  BOOST_TEST(!cache.find("img_1", "s"));
  BOOST_TEST(cache.find("img_3", "s"));
  BOOST_TEST(held->body == "body0"); // a reader's view outlives the entry
}

BOOST_AUTO_TEST_SUITE_END()
