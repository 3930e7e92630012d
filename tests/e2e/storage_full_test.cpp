// A bounded store: svcd on a 4 MiB `--map-size` is filled through the API
// (webhook endpoints with large metadata) until a create answers 507
// `insufficient_storage`; reads go on, `/metrics` shows the map nearly full
// and the log warned once at 80%; deletes still commit, and creates work again
// without a restart. `--job-retention` deletes terminal jobs while usage
// answers stay as they were.
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <string>
#include <vector>

#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_storage_full)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

struct small_store : server_fixture {
  small_store()
    : server_fixture({"--map-size", "4MiB", "--webhook-allow-private", "--max-endpoints-per-team", "100000"}) {}

  /// A team whose endpoint creates are not rate limited.
  team_keys unlimited_team() {
    auto t = create_team_with_keys();
    ctl_ok({"team", "limits", "--team", t.id, "--bucket", "webhook_endpoints_post", "--capacity", "100000",
            "--per-minute", "100000"});
    return t;
  }

  /// Creates an endpoint holding about 10 KB of metadata.
  response create_endpoint(http_client& c, const std::string& key) {
    boost::json::object metadata;
    for (int i = 0; i < 20; ++i)
      metadata["key_" + std::to_string(i)] = std::string(500, static_cast<char>('a' + i));
    boost::json::object body{{"url", "https://127.0.0.1:9/hook"}, {"events", {"image.completed"}},
                             {"metadata", metadata}};
    return c.request("POST", "/v1/webhook_endpoints", with_key(key, {{"Content-Type", "application/json"}}),
                     boost::json::serialize(body));
  }

  /// The value of a metric without labels in /metrics; -1 when absent.
  double metric(const std::string& name) {
    auto r = admin().get("/metrics", admin_auth());
    auto pos = r.body.find("\n" + name + " ");
    return pos == std::string::npos ? -1 : std::atof(r.body.c_str() + pos + name.size() + 2);
  }

  /// How many lines of the svcd log contain `text`.
  std::size_t log_lines_with(const std::string& text) const {
    auto log = read_file(svcd.log_path());
    std::size_t n = 0;
    for (auto pos = log.find(text); pos != std::string::npos; pos = log.find(text, pos + 1))
      ++n;
    return n;
  }
};

struct short_retention : server_fixture {
  short_retention() : server_fixture({"--job-retention", "2s"}) {}
};

} // namespace

BOOST_FIXTURE_TEST_CASE(a_full_store_answers_507_reads_go_on_and_freed_room_takes_writes_again, small_store) {
  auto t = unlimited_team();
  auto c = api();
  BOOST_TEST(metric("svc_store_map_bytes") == 4.0 * 1024 * 1024);
  BOOST_TEST(metric("svc_store_map_used_ratio") < 0.5);
  std::vector<std::string> created;
  response refused;
  for (int i = 0; i < 2000; ++i) {
    auto r = create_endpoint(c, t.write.key);
    if (r.status != 201) {
      refused = r;
      break;
    }
    created.push_back(json_str(r.json(), "id"));
  }
  BOOST_TEST_REQUIRE(is_error(refused, 507, "insufficient_storage"), refused.summary());
  BOOST_TEST(json_str(refused.json(), "error.type") == "internal");
  BOOST_TEST(created.size() > 100u, "filled by creates, not refused early");
  BOOST_TEST(metric("svc_store_map_used_ratio") > 0.85);
  BOOST_TEST(log_lines_with("of its map (") == 1u, "one warning when use crossed 80%");

  // Reads go on, and the refused create changed nothing.
  auto list = c.get("/v1/webhook_endpoints?limit=100", with_key(t.read.key));
  BOOST_TEST(list.status == 200, list.summary());
  BOOST_TEST(c.get("/v1/webhook_endpoints/" + created.back(), with_key(t.read.key)).status == 200);
  BOOST_TEST(c.get("/v1/balance", with_key(t.read.key)).status == 200);
  BOOST_TEST(create_endpoint(c, t.write.key).status == 507, "still full");

  // Deletes commit on a full store, and the room they free takes creates again.
  for (std::size_t i = 0; i < 10; ++i) {
    auto d = c.request("DELETE", "/v1/webhook_endpoints/" + created[i], with_key(t.write.key));
    BOOST_TEST(d.status == 200, d.summary());
  }
  auto pid = svcd.pid();
  response again;
  // Room freed by one commit is LMDB's to reuse after the next one, which
  // the rate buckets' snapshot (every 5 s) or another write makes.
  bool created_again = wait_until(
    [&] {
      again = create_endpoint(c, t.write.key);
      return again.status == 201;
    },
    15s, 100ms);
  BOOST_TEST(created_again, again.summary());
  BOOST_TEST(svcd.pid() == pid, "no restart");
  BOOST_TEST(c.get("/v1/webhook_endpoints/" + created[0], with_key(t.read.key)).status == 404);
}

BOOST_FIXTURE_TEST_CASE(retention_deletes_terminal_jobs_and_usage_stays, short_retention) {
  auto t = create_team_with_keys(1000);
  auto c = api();
  auto done = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, image_body("a lighthouse")), "id"));
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto id = json_str(done, "id");
  auto date = json_str(done, "completed_at").substr(0, 10);
  auto usage_query = "/v1/usage?start=" + date + "&end=" + date;
  auto before = c.get(usage_query, with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(before.status == 200, before.summary());
  BOOST_TEST(json_int(before.json(), "total.credits_charged") == json_int(done, "cost.credits"));
  auto balance = get_balance(c, t.read.key);

  bool gone = wait_until([&] { return c.get("/v1/images/" + id, with_key(t.read.key)).status == 404; }, 20s, 100ms);
  BOOST_TEST(gone, "the job is deleted 2 s after it ended");
  BOOST_TEST(list_image_ids(c, t.read.key).empty());
  auto after = c.get(usage_query, with_key(t.read.key));
  BOOST_TEST(after.status == 200, after.summary());
  BOOST_TEST(after.body == before.body, "usage answers as before");
  auto balance_after = get_balance(c, t.read.key);
  BOOST_TEST(balance_after.available == balance.available);
  BOOST_TEST(balance_after.held == balance.held);
}

BOOST_AUTO_TEST_SUITE_END()
