// GET /v1/images: newest first, cursor paging with limit / starting_after /
// has_more / next_cursor, the `status` filter (also across pages), and 400s
// for out-of-range limits and unknown parameters; with --list-scan-limit, a
// filtered list (images by status, events by type) stops at the bound and
// its cursor resumes the scan.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/refused_queries.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_images_list)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Creates `n` images and returns their ids newest first.
std::vector<std::string> create_images(http_client& c, const std::string& key, int n) {
  std::vector<std::string> ids;
  for (int i = 0; i < n; ++i)
    ids.insert(ids.begin(), json_str(create_image_ok(c, key, image_body("picture " + std::to_string(i))), "id"));
  return ids;
}

struct walk {
  std::vector<std::string> ids;      ///< every page's items, in order
  std::vector<std::string> cursors;  ///< every page's next_cursor but the last's (null)
  std::vector<std::size_t> sizes;    ///< items per page
};

// Follows next_cursor from the first page of `path?query` to the end.
walk walk_pages(http_client& c, const std::string& key, const std::string& path, const std::string& query) {
  walk w;
  std::string cursor;
  for (int page = 0; page < 50; ++page) {
    auto r = c.get(path + "?" + query + (cursor.empty() ? "" : "&starting_after=" + cursor), with_key(key));
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    auto list = r.json();
    auto page_ids = data_strings(list);
    w.ids.insert(w.ids.end(), page_ids.begin(), page_ids.end());
    w.sizes.push_back(page_ids.size());
    if (json_bool(list, "has_more") != true) {
      BOOST_TEST(json_is_null(list, "next_cursor"));
      return w;
    }
    cursor = json_str(list, "next_cursor");
    w.cursors.push_back(cursor);
  }
  BOOST_FAIL("more than 50 pages");
  return w;
}

// The ids of every page of `query` on /v1/images; without a scan bound each
// cursor is its page's last item.
std::vector<std::string> all_pages(http_client& c, const std::string& key, const std::string& query) {
  auto w = walk_pages(c, key, "/v1/images", query);
  std::size_t end = 0;
  for (std::size_t i = 0; i < w.cursors.size(); ++i) {
    end += w.sizes[i];
    BOOST_TEST((w.sizes[i] > 0 && w.cursors[i] == w.ids[end - 1]));
  }
  return w.ids;
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(images_list, server_fixture)

BOOST_AUTO_TEST_CASE(pages_newest_first_by_cursor) {
  auto t = create_team_with_keys();
  auto c = api();
  auto empty = c.get("/v1/images", with_key(t.read.key)).json();
  BOOST_TEST(json_str(empty, "object") == "list");
  BOOST_TEST(json_size(empty, "data") == 0);
  BOOST_TEST(json_bool(empty, "has_more") == false);
  BOOST_TEST(json_is_null(empty, "next_cursor"));

  auto newest_first = create_images(c, t.write.key, 5);
  BOOST_TEST(data_strings(c.get("/v1/images", with_key(t.read.key)).json()) == newest_first, "default limit 20");

  auto first = c.get("/v1/images?limit=2", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(first) == std::vector<std::string>(newest_first.begin(), newest_first.begin() + 2));
  BOOST_TEST(json_bool(first, "has_more") == true);
  BOOST_TEST(json_str(first, "next_cursor") == newest_first[1]);
  BOOST_TEST(json_str(first, "data.0.object") == "image", "entries are full records");

  auto second = c.get("/v1/images?limit=2&starting_after=" + newest_first[1], with_key(t.read.key)).json();
  BOOST_TEST(data_strings(second) == std::vector<std::string>(newest_first.begin() + 2, newest_first.begin() + 4));
  BOOST_TEST(json_bool(second, "has_more") == true);
  BOOST_TEST(json_str(second, "next_cursor") == newest_first[3]);

  auto last = c.get("/v1/images?starting_after=" + newest_first[3] + "&limit=2", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(last) == std::vector<std::string>{newest_first[4]});
  BOOST_TEST(json_bool(last, "has_more") == false);
  BOOST_TEST(json_is_null(last, "next_cursor"));

  auto exact = c.get("/v1/images?limit=5", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(exact) == newest_first);
  BOOST_TEST(json_bool(exact, "has_more") == false, "a full last page has nothing more");
  BOOST_TEST(all_pages(c, t.read.key, "limit=1") == newest_first);
  BOOST_TEST(data_strings(c.get("/v1/images?starting_after=" + newest_first[4], with_key(t.read.key)).json()).empty());

  // Another team sees none of them, even with a cursor from this team.
  auto other = create_team_with_keys();
  BOOST_TEST(list_image_ids(c, other.read.key).empty());
  BOOST_TEST(data_strings(c.get("/v1/images?starting_after=" + newest_first[0], with_key(other.read.key)).json()).empty());
}

BOOST_AUTO_TEST_CASE(status_filter_selects_and_pages) {
  auto t = create_team_with_keys();
  auto c = api();
  auto made = create_images(c, t.write.key, 4);
  for (auto& id : made)
    BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  // The built-in moderation list rejects this before generation.
  auto rejected = json_str(create_image_ok(c, t.write.key, image_body("a gore scene")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, rejected), "status") == "moderation_rejected");

  BOOST_TEST(list_image_ids(c, t.read.key, "status=succeeded") == made);
  BOOST_TEST(list_image_ids(c, t.read.key, "status=moderation_rejected") == std::vector<std::string>{rejected});
  BOOST_TEST(list_image_ids(c, t.read.key, "status=queued").empty());
  BOOST_TEST(list_image_ids(c, t.read.key, "status=cancelled").empty());
  BOOST_TEST(list_image_ids(c, t.read.key).size() == 5u);

  auto page = c.get("/v1/images?status=succeeded&limit=3", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(page) == std::vector<std::string>(made.begin(), made.begin() + 3));
  BOOST_TEST(json_bool(page, "has_more") == true);
  BOOST_TEST(all_pages(c, t.read.key, "status=succeeded&limit=1") == made);
  // The rejected job is the newest: a cursor past it still finds the older successes.
  BOOST_TEST(all_pages(c, t.read.key, "status=succeeded&limit=2&starting_after=" + rejected) == made);
  auto only = c.get("/v1/images?status=moderation_rejected&limit=1", with_key(t.read.key)).json();
  BOOST_TEST(json_bool(only, "has_more") == false, "no further match, however many rows follow");
}

BOOST_AUTO_TEST_CASE(bad_parameters_are_400) {
  auto t = create_team_with_keys();
  auto c = api();
  check_refused_queries(c, "/v1/images", t.read.key, {
    {"limit=0", "invalid_parameter", "limit"},
    {"limit=101", "invalid_parameter", "limit"},
    {"limit=-1", "invalid_parameter", "limit"},
    {"limit=abc", "invalid_parameter", "limit"},
    {"limit=", "invalid_parameter", "limit"},
    {"status=done", "invalid_parameter", "status"},
    {"starting_after=vid_00000000000000000000000000", "invalid_parameter", "starting_after"},
    {"starting_after=nope", "invalid_parameter", "starting_after"},
    {"colour=red", "unknown_parameter", "colour"},
  }, [](const response& r) { BOOST_TEST(json_str(r.json(), "error.type") == "invalid_request"); });
  for (std::string ok : {"limit=1", "limit=100"}) {
    auto r = c.get("/v1/images?" + ok, with_key(t.read.key));
    BOOST_TEST(r.status == 200, ok << " -> " << r.summary());
  }
}

BOOST_AUTO_TEST_SUITE_END()

namespace {
struct scan_bound_3 : server_fixture {
  scan_bound_3() : server_fixture({"--list-scan-limit", "3"}) {}
};
} // namespace

BOOST_FIXTURE_TEST_CASE(a_rare_filter_stops_at_the_scan_bound_and_its_cursor_resumes, scan_bound_3) {
  auto t = create_team_with_keys();
  auto c = api();
  auto made = create_images(c, t.write.key, 6);
  for (auto& id : made)
    BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
  auto rejected = json_str(create_image_ok(c, t.write.key, image_body("a gore scene")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, rejected), "status") == "moderation_rejected");
  // Newest first: rejected, made[0..5]; three records examined per request.

  auto first = c.get("/v1/images?status=moderation_rejected", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(first) == std::vector<std::string>{rejected});
  BOOST_TEST(json_bool(first, "has_more") == true, "rows after the bound are not examined");
  BOOST_TEST(json_str(first, "next_cursor") == made[1], "the cursor names the last record examined");
  auto empty = c.get("/v1/images?status=moderation_rejected&starting_after=" + made[1], with_key(t.read.key)).json();
  BOOST_TEST(data_strings(empty).empty());
  BOOST_TEST(json_bool(empty, "has_more") == true, "a page may end empty at the bound");
  BOOST_TEST(json_str(empty, "next_cursor") == made[4]);

  auto rare = walk_pages(c, t.read.key, "/v1/images", "status=moderation_rejected");
  BOOST_TEST(rare.ids == std::vector<std::string>{rejected});
  BOOST_TEST((rare.sizes == std::vector<std::size_t>{1, 0, 0}));
  auto common = walk_pages(c, t.read.key, "/v1/images", "status=succeeded");
  BOOST_TEST(common.ids == made, "every match once, in order");
  BOOST_TEST((common.sizes == std::vector<std::size_t>{2, 3, 1}));
  BOOST_TEST(walk_pages(c, t.read.key, "/v1/images", "status=queued").ids.empty());

  // A page that fills before the bound ends at its last item, as ever.
  auto two = c.get("/v1/images?limit=2", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(two) == (std::vector<std::string>{rejected, made[0]}));
  BOOST_TEST(json_str(two, "next_cursor") == made[0]);

  // The events feed: six image.completed events, none of type image.failed.
  auto failed = c.get("/v1/events?type=image.failed", with_key(t.read.key)).json();
  BOOST_TEST(data_strings(failed).empty());
  BOOST_TEST(json_bool(failed, "has_more") == true);
  BOOST_TEST(json_str(failed, "next_cursor").rfind("evt_", 0) == 0u);
  auto none = walk_pages(c, t.read.key, "/v1/events", "type=image.failed");
  BOOST_TEST(none.ids.empty());
  BOOST_TEST(none.sizes.size() == 2u);
  auto completed = walk_pages(c, t.read.key, "/v1/events", "type=image.completed");
  BOOST_TEST(completed.ids.size() == 6u);
  BOOST_TEST((completed.sizes == std::vector<std::size_t>{3, 3}));
}

BOOST_AUTO_TEST_SUITE_END()
