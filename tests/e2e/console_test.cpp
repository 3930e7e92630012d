// The operator console: GET /admin/overview (teams, renders, endpoints,
// recent 5xx), and the page at `/` in headless Chromium: without the token it
// shows no data; with it, its actor table lists the ids `/admin/actors` lists.
// Set SVC_CONSOLE_SCREENSHOT=path to keep a screenshot of the console with data
// (docs/console.png is made that way).
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "support/headless_browser.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_console)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Renders that last: with one worker, one job is in flight and the rest queue,
// so the set of live actors holds still while the page and the route are compared.
struct busy_server : server_fixture {
  busy_server()
      : server_fixture({"--workers", "1", "--render-delay", "60s", "--fault-injection", "--webhook-allow-private"}) {}

  /// A team with credits, `jobs` image jobs and a webhook endpoint on a
  /// loopback port nobody listens on, sent a test fire (which fails).
  team_keys team_with_work(int jobs) {
    auto t = create_team_with_keys(5000);
    auto c = api();
    auto json = with_key(t.write.key, {{"Content-Type", "application/json"}});
    auto hook =
      c.request("POST", "/v1/webhook_endpoints", json, R"({"url": "https://127.0.0.1:9/hook", "events": ["*"]})");
    BOOST_REQUIRE_MESSAGE(hook.status == 201, hook.summary());
    auto fire = c.request("POST", "/v1/webhook_endpoints/" + json_str(hook.json(), "id") + "/test", json,
                          R"({"event_type": "image.completed"})");
    BOOST_REQUIRE_MESSAGE(fire.status == 202, fire.summary());
    for (int i = 0; i < jobs; ++i)
      create_image_ok(c, t.write.key, image_body("a lighthouse at dusk " + std::to_string(i)));
    return t;
  }

  /// The answer to `request()` made while every store read fails.
  template <class Request>
  response while_reads_fail(Request&& request) {
    auto a = admin();
    BOOST_REQUIRE(a.request("POST", "/admin/faults", admin_auth(), R"({"store_reads": "fail"})").status == 200);
    auto r = request();
    BOOST_REQUIRE(a.request("POST", "/admin/faults", admin_auth(), R"({"store_reads": "ok"})").status == 200);
    return r;
  }

  /// One 503 `storage_unavailable` on `GET /v1/images/{id}`.
  void answer_one_503(const team_keys& t) {
    auto id = std::string{"img_01M88Y0WAQ90DMKDTH4AQZR4Y0"};
    auto r = while_reads_fail([&] { return api().get("/v1/images/" + id, with_key(t.read.key)); });
    BOOST_REQUIRE_MESSAGE(is_error(r, 503, "storage_unavailable"), r.summary());
  }

  boost::json::value overview() {
    auto r = admin().get("/admin/overview", admin_auth());
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    return r.json();
  }

  std::string token() const { return svcd.admin_token(); }
};

// "kind id" of every row of an actor list.
std::set<std::string> actor_keys(const boost::json::array& rows) {
  std::set<std::string> out;
  for (auto& row : rows)
    out.insert(json_str(row, "kind") + " " + json_str(row, "id"));
  return out;
}

// The page's actor table as rows {kind, id} (shown rows only).
const char* page_actor_rows =
  "return [...document.querySelectorAll('#actors tbody tr[data-id]')]"
  ".map(r => ({kind: r.dataset.kind, id: r.dataset.id}));";

// Submits `token` through the page's form, as an operator would.
const char* page_log_in = "document.getElementById('token').value = arguments[0];"
                          "document.getElementById('login').requestSubmit();";

} // namespace

BOOST_FIXTURE_TEST_SUITE(console, busy_server)

BOOST_AUTO_TEST_CASE(the_overview_shows_renders_balances_endpoints_and_recent_5xx) {
  auto t = team_with_work(3);
  answer_one_503(t);
  BOOST_REQUIRE(wait_until([&] { return json_int(overview(), "renders.running") == 1; }, 10s));
  auto o = overview();
  BOOST_TEST(json_str(o, "object") == "overview");
  BOOST_TEST(json_int(o, "renders.queued") == 2);
  BOOST_TEST(json_int(o, "renders.workers") == 1);

  BOOST_REQUIRE(json_size(o, "teams.data") == 1);
  BOOST_TEST(json_str(o, "teams.data.0.id") == t.id);
  BOOST_TEST(*json_int(o, "teams.data.0.held") > 0);
  BOOST_TEST(*json_int(o, "teams.data.0.available") + *json_int(o, "teams.data.0.held") == 5000);
  BOOST_TEST(json_str(o, "teams.data.0.buckets.0.bucket") == "images_post");
  BOOST_TEST(json_int(o, "teams.data.0.buckets.0.capacity") == 120);

  // Levels are current, not those of the last periodic snapshot: a bucket
  // shrunk to 5 tokens that barely refill shows the one token just taken.
  auto limits = admin().request("POST", "/admin/teams/" + t.id + "/limits", admin_auth(),
                                R"({"bucket": "images_post", "capacity": 5, "per_minute": 0.001})");
  BOOST_REQUIRE_MESSAGE(limits.status == 200, limits.summary());
  auto c = api();
  create_image_ok(c, t.write.key, image_body());
  o = overview();
  BOOST_TEST(json_int(o, "teams.data.0.buckets.0.capacity") == 5);
  BOOST_TEST(json_int(o, "teams.data.0.buckets.0.tokens") == 4);

  BOOST_REQUIRE(json_size(o, "endpoints.data") == 1);
  BOOST_TEST(json_str(o, "endpoints.data.0.team_id") == t.id);
  BOOST_TEST(json_bool(o, "endpoints.data.0.is_active") == true);
  BOOST_TEST(wait_until([&] { return json_int(overview(), "endpoints.data.0.consecutive_failures") >= 1; }, 10s),
             "the failed test fire is counted");

  BOOST_REQUIRE(json_size(o, "recent_5xx") == 1);
  BOOST_TEST(json_str(o, "recent_5xx.0.route") == "/v1/images/{id}", "the template, never the ids of the path");
  BOOST_TEST(json_str(o, "recent_5xx.0.method") == "GET");
  BOOST_TEST(json_int(o, "recent_5xx.0.status") == 503);
  BOOST_TEST(json_str(o, "recent_5xx.0.code") == "storage_unavailable");
  BOOST_TEST(is_request_id(json_str(o, "recent_5xx.0.request_id")));
}

BOOST_AUTO_TEST_CASE(the_overview_needs_the_token_and_takes_no_parameters) {
  auto a = admin();
  BOOST_TEST(is_error(a.get("/admin/overview"), 401, "missing_api_key"));
  BOOST_TEST(is_error(a.get("/admin/overview", {{"Authorization", "Bearer wrong"}}), 401, "invalid_api_key"));
  auto r = a.get("/admin/overview?team=x", admin_auth());
  BOOST_TEST(is_error(r, 400, "unknown_parameter"));
  BOOST_TEST(json_str(r.json(), "error.param") == "team");
}

BOOST_AUTO_TEST_CASE(the_overview_answers_503_while_the_store_fails_reads) {
  team_with_work(1);
  auto failed = while_reads_fail([&] { return admin().get("/admin/overview", admin_auth()); });
  BOOST_TEST(is_error(failed, 503, "storage_unavailable"), failed.summary());
  auto o = overview();
  BOOST_TEST(json_str(o, "recent_5xx.0.route") == "/admin/overview", "admin answers are listed too");
}

// A load balancer asks /readyz every few seconds; its "not ready" answers
// while svcd recovers or the store fails would push the clients' failures
// out of the list, so they are not kept there (the log has them).
BOOST_AUTO_TEST_CASE(readiness_answers_are_not_listed_among_the_5xx) {
  team_with_work(1);
  auto not_ready = while_reads_fail([&] { return admin().get("/readyz"); });
  BOOST_TEST(not_ready.status == 503, not_ready.summary());
  BOOST_TEST(json_size(overview(), "recent_5xx") == 0);
}

BOOST_AUTO_TEST_CASE(the_page_carries_no_data_and_pins_its_script) {
  auto t = team_with_work(1);
  auto r = admin().get("/");
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type") == "text/html; charset=utf-8");
  BOOST_TEST(r.header_or_empty("Cache-Control") == "no-store");
  auto csp = r.header_or_empty("Content-Security-Policy");
  BOOST_TEST(csp.find("script-src 'sha256-") != std::string::npos, csp);
  BOOST_TEST(csp.find("connect-src 'self'") != std::string::npos, csp);
  BOOST_TEST(r.body.find(t.id) == std::string::npos, "no team id in the page");
  BOOST_TEST(r.body.find(token()) == std::string::npos, "no token in the page");
}

BOOST_AUTO_TEST_CASE(without_the_token_the_console_shows_no_data) {
  auto t = team_with_work(2);
  headless_browser browser;
  browser.navigate(admin().base_url() + "/");
  auto rows = [&] { return browser.run(page_actor_rows).as_array().size(); };
  auto text = [&] { return std::string{browser.run("return document.body.innerText;").as_string()}; };
  BOOST_TEST(browser.run("return document.getElementById('login').checkVisibility();") == true);
  BOOST_TEST(browser.run("return document.getElementById('data').hidden;") == true);
  BOOST_TEST(rows() == 0u);
  BOOST_TEST(text().find(t.id) == std::string::npos);

  browser.run(page_log_in, {"not-the-token"});
  BOOST_REQUIRE_MESSAGE(wait_until([&] { return text().find("refused") != std::string::npos; }, 10s, 50ms),
                        "the page says the token was refused: " << text());
  BOOST_TEST(rows() == 0u);
  BOOST_TEST(text().find(t.id) == std::string::npos);
  BOOST_TEST(browser.run("return document.getElementById('data').hidden;") == true);
  BOOST_TEST(browser.run("return sessionStorage.length;") == 0, "a refused token is not kept");
}

BOOST_AUTO_TEST_CASE(with_the_token_the_actor_table_lists_what_admin_actors_lists) {
  auto t1 = team_with_work(2);
  auto t2 = team_with_work(1);
  answer_one_503(t1);
  BOOST_REQUIRE(wait_until([&] { return json_int(overview(), "renders.running") == 1; }, 10s));

  headless_browser browser;
  browser.navigate(admin().base_url() + "/");
  browser.run(page_log_in, {token()});
  BOOST_REQUIRE_MESSAGE(wait_until([&] { return !browser.run(page_actor_rows).as_array().empty(); }, 15s, 50ms),
                        "the actor table fills");

  auto listed = admin().get("/admin/actors?limit=500", admin_auth());
  BOOST_REQUIRE_MESSAGE(listed.status == 200, listed.summary());
  auto expected = actor_keys(listed.json().at("data").as_array());
  BOOST_TEST(expected.size() > 5u);
  std::set<std::string> shown;
  // The page refreshes every 2 s: wait for a refresh that saw the same set.
  wait_until([&] { return (shown = actor_keys(browser.run(page_actor_rows).as_array())) == expected; }, 10s, 100ms);
  BOOST_TEST(shown == expected, "the page and /admin/actors list the same kind and id pairs");

  auto text = std::string{browser.run("return document.body.innerText;").as_string()};
  for (auto& id : {t1.id, t2.id})
    BOOST_TEST(text.find(id) != std::string::npos, id << " in the teams table");
  BOOST_TEST(text.find("/v1/images/{id}") != std::string::npos, "the 503 in the recent 5xx table");
  BOOST_TEST(text.find("updated at") != std::string::npos);
  BOOST_TEST(browser.run("return document.getElementById('login').checkVisibility();") == false,
             "the token form is gone once connected");
  BOOST_TEST(browser.run("return document.getElementById('banner').hidden;") == true, "no error banner");

  // The kind filter leaves only that kind; the token is in no URL and no cookie.
  browser.run("const k = document.getElementById('kind'); k.value = 'job'; k.dispatchEvent(new Event('change'));");
  // Three jobs: one rendering and one waiting in the worker pool have actors; the third waits in the
  // job directory's queue, which spawns its actor only when a worker slot frees.
  auto jobs = browser.run(page_actor_rows).as_array();
  BOOST_TEST(jobs.size() == 2u);
  for (auto& row : jobs)
    BOOST_TEST(json_str(row, "kind") == "job");
  BOOST_TEST(std::string{browser.run("return location.href;").as_string()} == admin().base_url() + "/");
  BOOST_TEST(std::string{browser.run("return document.cookie;").as_string()}.empty());
  browser.run("const k = document.getElementById('kind'); k.value = ''; k.dispatchEvent(new Event('change'));");

  if (auto* path = std::getenv("SVC_CONSOLE_SCREENSHOT")) {
    browser.resize(1400, 1420);
    std::ofstream{path, std::ios::binary} << browser.screenshot_png();
  }
}

BOOST_AUTO_TEST_CASE(the_actor_table_filters_by_text_and_sorts_by_column) {
  // t2's job first: it takes a worker slot, so it has an actor (the third job waits in the queue without one).
  auto t2 = team_with_work(1);
  team_with_work(2);
  headless_browser browser;
  browser.navigate(admin().base_url() + "/");
  browser.run(page_log_in, {token()});
  BOOST_REQUIRE(wait_until([&] { return !browser.run(page_actor_rows).as_array().empty(); }, 15s, 50ms));

  // Text matches any column: a team id leaves exactly that team's actors.
  browser.run("const f = document.getElementById('filter'); f.value = arguments[0];"
              "f.dispatchEvent(new Event('input'));",
              {t2.id});
  auto team_actors = admin().get("/admin/actors?team=" + t2.id, admin_auth());
  BOOST_REQUIRE_MESSAGE(team_actors.status == 200, team_actors.summary());
  auto expected = actor_keys(team_actors.json().at("data").as_array());
  BOOST_TEST(expected.size() == 4u, "bucket, ledger, endpoint and job");
  BOOST_TEST(actor_keys(browser.run(page_actor_rows).as_array()) == expected);

  // A click on a header sorts by it, a second click reverses the order.
  browser.run("const f = document.getElementById('filter'); f.value = ''; f.dispatchEvent(new Event('input'));");
  const char* kinds_in_order = "return [...document.querySelectorAll('#actors tbody tr[data-kind]')]"
                               ".map(r => r.dataset.kind);";
  const char* ordered = "const k = arguments[0];"
                        "return k.every((x, i) => i === 0 || arguments[1] * k[i - 1].localeCompare(x) <= 0);";
  auto kinds = browser.run(kinds_in_order).as_array();
  BOOST_TEST(browser.run(ordered, {kinds, 1}) == true, "sorted by kind at first");
  browser.run("document.querySelector('#actors th[data-key=kind]').click();");
  auto reversed = browser.run(kinds_in_order).as_array();
  BOOST_TEST(browser.run(ordered, {reversed, -1}) == true, "reversed by the click");
  BOOST_TEST(reversed.front() != kinds.front());

  // A refresh that fails keeps the last data and says so in the banner.
  BOOST_REQUIRE(svcd.stop() == 0);
  auto banner = [&] {
    return std::string{browser.run("const b = document.getElementById('banner');"
                                   "return b.checkVisibility() ? b.textContent : '';").as_string()};
  };
  BOOST_TEST(wait_until([&] { return banner().find("Refresh failed") != std::string::npos; }, 10s, 100ms), banner());
  BOOST_TEST(!browser.run(page_actor_rows).as_array().empty(), "the last data stays");
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
