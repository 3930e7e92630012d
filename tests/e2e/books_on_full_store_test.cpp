// A team's books on a full store: several teams create, cancel and settle
// jobs at once on svcd with an 8 MiB map until the store refuses writes.
// Every refused write answers 507 (never 503), every job ends, `held` comes
// back to 0 and available + held + charged is what was granted, and so it
// stays after a kill -9 and a restart.
#include <boost/test/unit_test.hpp>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_books_on_full_store)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t granted = 1000000;
constexpr int teams_filling = 3;
constexpr int creators_per_team = 3;

struct full_store : server_fixture {
  full_store()
    : server_fixture({"--map-size", "8MiB", "--job-retention", "20s", "--render-delay", "0ms", "--idempotency-ttl",
                      "5s", "--output-ttl", "5s"}) {}

  /// A team whose creates are not rate limited.
  team_keys unlimited_team() {
    auto t = create_team_with_keys(granted);
    ctl_ok({"team", "limits", "--team", t.id, "--bucket", "images_post", "--capacity", "1000000", "--per-minute",
            "60000000"});
    return t;
  }
};

/// What the creators of one team saw.
struct team_run {
  team_keys team;
  std::mutex m;
  std::set<std::string> jobs;                   ///< every job a create answered 201 for
  std::map<std::string, int> refusals;          ///< "status code" of every other answer to a write
};

/// The code of an error body, or what the body was instead.
std::string error_code_of(const response& r) {
  try {
    return json_str(r.json(), "error.code");
  } catch (const std::exception&) {
    return "(no JSON error body: " + r.body.substr(0, 80) + ")";
  }
}

/// Creates 256x256 images with 400-character prompts and new keys, and
/// cancels every third one, until 5 creates in a row were refused.
void create_or_cancel(http_client& c, team_run& run, int creator, std::atomic<bool>& stop) {
  auto refused = [&](const std::string& what, const response& r) {
    std::lock_guard lock{run.m};
    ++run.refusals[what + " " + std::to_string(r.status) + " " + error_code_of(r)];
  };
  int refused_in_a_row = 0;
  for (int i = 0; !stop && refused_in_a_row < 5 && i < 5000; ++i) {
    auto body = image_body(std::string(400, static_cast<char>('a' + (i + creator) % 26)));
    auto key = "fill-" + std::to_string(creator) + "-" + std::to_string(i);
    auto r = create_image(c, run.team.write.key, body, {{"Idempotency-Key", key}});
    if (r.status != 201) {
      ++refused_in_a_row;
      refused("create", r);
      continue;
    }
    refused_in_a_row = 0;
    auto id = json_str(r.json(), "id");
    {
      std::lock_guard lock{run.m};
      run.jobs.insert(id);
    }
    if (i % 3 == 0) {
      auto cancel = c.request("POST", "/v1/images/" + id + "/cancel", with_key(run.team.write.key));
      if (cancel.status != 200 && cancel.status != 409) // 409: it ended first
        refused("cancel", cancel);
    }
  }
}

/// One creator's thread: a client error (svcd gone, a dropped connection)
/// ends it and is recorded with the refusals.
void create_until_refused(http_client c, team_run& run, int creator, std::atomic<bool>& stop) {
  try {
    create_or_cancel(c, run, creator, stop);
  } catch (const std::exception& e) {
    std::lock_guard lock{run.m};
    ++run.refusals[std::string{"client error: "} + e.what()];
  }
}

/// The team's charged credits today and yesterday (GET /v1/usage).
std::int64_t charged(http_client& c, const std::string& key, const std::string& start, const std::string& end) {
  auto r = c.get("/v1/usage?start=" + start + "&end=" + end, with_key(key));
  BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
  return json_int(r.json(), "total.credits_charged").value_or(-1);
}

/// Today's UTC date, YYYY-MM-DD.
std::string today() {
  auto now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

/// Checks held = 0 and available + held + charged = granted for `run`'s team.
void check_books(full_store& f, team_run& run, const std::string& start, const std::string& when) {
  auto c = f.api();
  auto balance = get_balance(c, run.team.read.key);
  auto spent = charged(c, run.team.read.key, start, today());
  BOOST_TEST_CONTEXT(when << ", team " << run.team.id) {
    BOOST_TEST(balance.held == 0);
    BOOST_TEST(balance.available >= 0);
    BOOST_TEST(balance.available + balance.held + spent == granted);
  }
}

} // namespace

BOOST_FIXTURE_TEST_CASE(concurrent_writes_on_a_full_store_answer_507_and_the_books_add_up, full_store) {
  auto start = today();
  std::vector<std::unique_ptr<team_run>> runs;
  for (int t = 0; t < teams_filling; ++t) {
    runs.push_back(std::make_unique<team_run>());
    runs.back()->team = unlimited_team();
  }
  std::atomic<bool> stop{false};
  std::vector<std::thread> creators;
  for (auto& run : runs)
    for (int i = 0; i < creators_per_team; ++i)
      creators.emplace_back(create_until_refused, api(), std::ref(*run), static_cast<int>(creators.size()),
                            std::ref(stop));
  for (auto& th : creators)
    th.join();

  std::size_t created = 0;
  for (auto& run : runs) {
    created += run->jobs.size();
    BOOST_TEST_CONTEXT("team " << run->team.id) {
      BOOST_TEST(!run->refusals.empty(), "the store filled up");
      for (auto& [answer, count] : run->refusals)
        BOOST_TEST(answer.find(" 507 insufficient_storage") != std::string::npos,
                   answer << " (" << count << " times): a refused write answers 507");
    }
  }
  BOOST_TEST(created > 100u, "filled by creates, not refused early");

  // Every job ends (or is gone after its retention), and the books add up.
  auto c = api();
  for (auto& run : runs)
    for (auto& id : run->jobs) {
      bool ended = wait_until(
        [&] {
          auto r = c.get("/v1/images/" + id, with_key(run->team.read.key));
          return r.status == 404 || (r.status == 200 && is_terminal_status(json_str(r.json(), "status")));
        },
        60s, 50ms);
      BOOST_TEST_REQUIRE(ended, id << " ends");
    }
  for (auto& run : runs)
    check_books(*this, *run, start, "once every job ended");

  svcd.kill9();
  svcd.start();
  for (auto& run : runs)
    check_books(*this, *run, start, "after kill -9 and a restart");
}

BOOST_AUTO_TEST_SUITE_END()
