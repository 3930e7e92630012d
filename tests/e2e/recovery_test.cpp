// Crash recovery (architecture.md "Recovery"): svcd killed with SIGKILL while
// image jobs are queued, processing or settling, then restarted on the same
// data directory. Every acknowledged create survives and finishes exactly
// once; credits are conserved (available + held + charged == granted at every
// observation, held 0 at the end, usage matching the charged costs); outputs
// download as the recorded PNGs; output bytes whose TTL passed while svcd was
// down are deleted by the expiry sweeper soon after the restart.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <sys/stat.h>
#include <vector>

#include <boost/json/object.hpp>
#include <boost/json/serialize.hpp>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_recovery)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

constexpr std::int64_t granted = 10000;

struct two_slow_workers : server_fixture {
  two_slow_workers() : server_fixture({"--workers", "2", "--render-delay", "1s"}) {}
};

struct two_workers : server_fixture {
  two_workers() : server_fixture({"--workers", "2"}) {}
};

struct output_ttl_3s : server_fixture {
  output_ttl_3s() : server_fixture({"--output-ttl", "3s"}) {}
};

std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
    .count();
}

bool file_exists(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0;
}

// Small, mixed create bodies; every third asks for two outputs.
boost::json::object mixed_body(int i) {
  static const int sizes[][2] = {{256, 256}, {320, 256}, {256, 384}, {384, 320}, {512, 256}};
  auto& s = sizes[i % 5];
  auto body = image_body("recovery check " + std::to_string(i), s[0], s[1]);
  if (i % 3 == 0)
    body["num_outputs"] = 2;
  return body;
}

// What a 201 acknowledged.
struct acknowledged {
  std::string id;
  std::int64_t credits = 0;
  std::int64_t outputs = 0;
};

acknowledged acknowledged_of(const boost::json::value& record) {
  return {json_str(record, "id"), json_int(record, "cost.credits").value_or(-1),
          json_int(record, "num_outputs").value_or(-1)};
}

// Every image record of the team (one GET /v1/images?limit=100, plus
// `filter`), by id; nothing when the list does not answer 200.
std::optional<std::map<std::string, boost::json::value>> all_images(http_client& c, const std::string& key,
                                                                     const std::string& filter = "") {
  auto r = c.get("/v1/images?limit=100" + filter, with_key(key));
  if (r.status != 200)
    return std::nullopt;
  auto list = r.json();
  std::map<std::string, boost::json::value> out;
  for (long i = 0; i < json_size(list, "data"); ++i) {
    auto& rec = *json_at(list, "data." + std::to_string(i));
    out[json_str(rec, "id")] = rec;
  }
  return out;
}

std::size_t count_images(http_client& c, const std::string& key, const std::string& filter) {
  auto records = all_images(c, key, filter);
  return records ? records->size() : 0;
}

// total.credits_charged of GET /v1/usage (the last 30 UTC days); -1 unless 200.
std::int64_t usage_charged(http_client& c, const std::string& key) {
  auto r = c.get("/v1/usage", with_key(key));
  return r.status == 200 ? json_int(r.json(), "total.credits_charged").value_or(-1) : -1;
}

// One consistent reading of the team's credits.
struct credits_snapshot {
  std::int64_t available = -1;
  std::int64_t held = -1;
  std::int64_t charged = -1;

  std::int64_t sum() const { return available + held + charged; }
};

std::ostream& operator<<(std::ostream& os, const credits_snapshot& s) {
  return os << "available=" << s.available << " held=" << s.held << " charged=" << s.charged << " (sum "
            << s.sum() << ")";
}

// Balance and usage are two reads of committed rows; a settlement between
// them would show its credits twice or not at all. A charge commits usage and
// balance together and usage only grows, so a balance read between two equal
// usage reads saw exactly that usage.
credits_snapshot observe(http_client& c, const std::string& key) {
  credits_snapshot s;
  for (int attempt = 0; attempt < 200; ++attempt) {
    auto before = usage_charged(c, key);
    auto b = get_balance(c, key);
    auto after = usage_charged(c, key);
    s = {b.available, b.held, after};
    if (before == after && before >= 0)
      return s;
  }
  BOOST_ERROR("usage kept changing between reads; last " << s);
  return s;
}

// Checks the conservation of credits on one observation.
void expect_conserved(const credits_snapshot& s, const std::string& when) {
  BOOST_TEST_CONTEXT(when << ": " << s) {
    BOOST_TEST(s.available >= 0);
    BOOST_TEST(s.held >= 0);
    BOOST_TEST(s.charged >= 0);
    BOOST_TEST(s.sum() == granted);
  }
}

// Polls the team's records (checking conservation on every poll) until every
// acknowledged job is terminal or `timeout` passes; returns the last records.
std::map<std::string, boost::json::value> wait_all_terminal(http_client& c, const team_keys& t,
                                                            const std::vector<acknowledged>& jobs,
                                                            std::chrono::milliseconds timeout, int& observations) {
  std::map<std::string, boost::json::value> last;
  bool done = wait_until(
    [&] {
      expect_conserved(observe(c, t.read.key), "while recovering");
      ++observations;
      auto records = all_images(c, t.read.key);
      if (!records)
        return false;
      last = std::move(*records);
      for (auto& j : jobs) {
        auto it = last.find(j.id);
        if (it == last.end() || !is_terminal_status(json_str(it->second, "status")))
          return false;
      }
      return true;
    },
    timeout, 50ms);
  if (!done) {
    std::map<std::string, int> by_status;
    for (auto& j : jobs) {
      auto it = last.find(j.id);
      ++by_status[it == last.end() ? "(missing)" : json_str(it->second, "status")];
    }
    std::string counts;
    for (auto& [status, n] : by_status)
      counts += " " + status + "=" + std::to_string(n);
    BOOST_ERROR("jobs not all terminal " << timeout.count() << " ms after the restart:" << counts);
  }
  return last;
}

// Names of the files in `dir`, leaving out the temporary files of writes a
// kill interrupted (`NAME.tmp-ULID`).
std::set<std::string> files_in(const std::string& dir) {
  std::error_code ec;
  std::set<std::string> out;
  for (auto it = std::filesystem::directory_iterator(dir, ec); !ec && it != std::filesystem::directory_iterator();
       it.increment(ec)) {
    auto name = it->path().filename().string();
    if (name.find(".tmp-") == std::string::npos)
      out.insert(name);
  }
  return out;
}

// A team with `granted` credits whose reads bucket does not get in the way of
// polling (the limit is stored, so it holds across restarts).
team_keys recovery_team(server_fixture& f) {
  auto t = f.create_team_with_keys(granted);
  f.ctl_ok({"team", "limits", "--team", t.id, "--bucket", "reads", "--capacity", "1000000", "--per-minute",
            "1000000"});
  return t;
}

std::size_t count_in_log(const svcd_process& p, const std::string& needle) {
  auto log = read_file(p.log_path());
  std::size_t n = 0;
  for (auto pos = log.find(needle); pos != std::string::npos; pos = log.find(needle, pos + 1))
    ++n;
  return n;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(jobs_in_flight_finish_exactly_once_after_sigkill, two_slow_workers) {
  auto t = recovery_team(*this);
  auto c = api();
  std::vector<acknowledged> jobs;
  for (int i = 0; i < 30; ++i) {
    auto record = create_image_ok(c, t.write.key, mixed_body(i));
    jobs.push_back(acknowledged_of(record));
    BOOST_TEST(json_str(record, "cost.status") == "held");
  }
  // A slow machine may finish the first jobs while the last are created.
  expect_conserved(observe(c, t.read.key), "after the creates");

  std::size_t processing = 0;
  BOOST_REQUIRE_MESSAGE(wait_until(
                          [&] {
                            processing = count_images(c, t.read.key, "&status=processing");
                            return processing > 0;
                          },
                          15s, 20ms),
                        "no job reached processing within 15 s");
  auto succeeded_before = count_images(c, t.read.key, "&status=succeeded");
  BOOST_TEST_MESSAGE("killing svcd with " << processing << " processing, " << succeeded_before
                                          << " succeeded of 30");
  BOOST_TEST_REQUIRE(succeeded_before < 30u, "the kill must come while jobs are unfinished");

  svcd.kill9();
  svcd.set_extra_args({"--workers", "2", "--render-delay", "0s"});
  svcd.start();
  auto c2 = api();
  int observations = 0;
  auto records = wait_all_terminal(c2, t, jobs, 60s, observations);
  BOOST_TEST_MESSAGE("all terminal after " << observations << " observations");

  // Exactly the 30 acknowledged jobs, each succeeded and charged its held cost.
  BOOST_TEST(records.size() == jobs.size());
  std::int64_t charged = 0, outputs = 0;
  std::map<std::string, std::int64_t> charged_by_day;
  for (auto& j : jobs) {
    BOOST_TEST_CONTEXT(j.id) {
      auto it = records.find(j.id);
      BOOST_TEST_REQUIRE((it != records.end()));
      auto& r = it->second;
      BOOST_TEST(json_str(r, "status") == "succeeded", boost::json::serialize(r));
      BOOST_TEST(json_str(r, "cost.status") == "charged");
      BOOST_TEST(json_int(r, "cost.credits") == j.credits);
      BOOST_TEST(json_size(r, "output_urls") == j.outputs);
      BOOST_TEST(json_size(r, "outputs") == j.outputs);
      BOOST_TEST(json_is_null(r, "failure"));
      if (json_str(r, "cost.status") == "charged") {
        charged += j.credits;
        charged_by_day[json_str(r, "completed_at").substr(0, 10)] += j.credits;
      }
      outputs += j.outputs;
    }
  }

  auto s = observe(c2, t.read.key);
  expect_conserved(s, "at the end");
  BOOST_TEST(s.held == 0);
  BOOST_TEST(s.available + charged == granted);
  BOOST_TEST(s.charged == charged);
  auto today = utc_date();
  auto usage = c2.get("/v1/usage?start=" + charged_by_day.begin()->first + "&end=" + today, with_key(t.read.key));
  BOOST_REQUIRE_MESSAGE(usage.status == 200, usage.summary());
  auto u = usage.json();
  for (long i = 0; i < json_size(u, "data"); ++i) {
    auto date = json_str(u, "data." + std::to_string(i) + ".date");
    auto expected = charged_by_day.count(date) ? charged_by_day[date] : 0;
    BOOST_TEST(json_int(u, "data." + std::to_string(i) + ".credits_charged") == expected, date);
  }
  if (charged_by_day.size() == 1 && charged_by_day.begin()->first == today)
    BOOST_TEST(json_int(u, "data.0.credits_charged") == charged, "today's row holds every charge");
  BOOST_TEST(json_int(u, "total.images") == outputs, "images counts each output once");
  BOOST_TEST(count_in_log(svcd, "no open hold to settle") == 0u, "a job was settled twice");
  BOOST_TEST(count_in_log(svcd, "but open holds sum to") == 0u, "balance.held disagreed with the open holds");
  std::set<std::string> expected_files;
  for (auto& j : jobs)
    for (std::int64_t i = 0; i < j.outputs; ++i)
      expected_files.insert(j.id + "." + std::to_string(i) + ".png");
  BOOST_TEST((files_in(svcd.data_dir() + "/blobs/outputs") == expected_files), "one stored file per output");

  // Every output URL serves the PNG the record describes.
  http_client anonymous{svcd.api_url()};
  for (auto& j : jobs) {
    auto& r = records[j.id];
    for (long i = 0; i < json_size(r, "output_urls"); ++i) {
      auto n = std::to_string(i);
      BOOST_TEST_CONTEXT(j.id << " output " << i) {
        auto got = anonymous.get(target_of(json_str(r, "output_urls." + n)));
        BOOST_TEST_REQUIRE(got.status == 200, got.summary());
        auto size = png_dimensions(got.body);
        BOOST_TEST_REQUIRE(size.has_value(), "not a PNG");
        BOOST_TEST(size->width == json_int(r, "width").value_or(-1));
        BOOST_TEST(size->height == json_int(r, "height").value_or(-1));
        BOOST_TEST(sha256_hex(got.body) == json_str(r, "outputs." + n + ".sha256"));
      }
    }
  }

  // Nothing runs again after a clean restart: same records, same credits.
  BOOST_TEST(svcd.restart() == 0);
  auto c3 = api();
  auto again = all_images(c3, t.read.key);
  BOOST_TEST_REQUIRE(again.has_value());
  for (auto& j : jobs)
    BOOST_TEST(json_str((*again)[j.id], "completed_at") == json_str(records[j.id], "completed_at"), j.id);
  auto s2 = observe(c3, t.read.key);
  BOOST_TEST(s2.available == s.available);
  BOOST_TEST(s2.held == 0);
  BOOST_TEST(s2.charged == s.charged);
}

BOOST_FIXTURE_TEST_CASE(acknowledged_creates_survive_sigkill_right_after_the_201, two_workers) {
  auto t = recovery_team(*this);
  std::vector<acknowledged> jobs;
  int observations = 0;
  // Four rounds of 15 creates, SIGKILL as soon as the last answer is read,
  // then a restart; earlier rounds' jobs may be killed again. Even rounds
  // create one by one (earlier jobs render and settle meanwhile, so the kill
  // finds some mid-settlement), odd rounds pipeline the batch on one
  // connection (the kill finds them queued or just admitted).
  for (int round = 0; round < 4; ++round) {
    BOOST_TEST_CONTEXT("round " << round) {
      auto c = api();
      expect_conserved(observe(c, t.read.key), "before the batch");
      ++observations;
      std::vector<request_spec> batch;
      for (int i = 0; i < 15; ++i)
        batch.push_back({"POST", "/v1/images", with_key(t.write.key),
                         boost::json::serialize(mixed_body(round * 15 + i))});
      std::vector<response> answers;
      if (round % 2 == 0) {
        for (auto& b : batch)
          answers.push_back(c.request(b.method, b.target, b.headers, b.body));
      } else {
        answers = c.pipeline(batch);
      }
      svcd.kill9();
      BOOST_TEST(answers.size() == batch.size());
      for (auto& a : answers) {
        BOOST_TEST(a.status == 201, a.summary());
        if (a.status == 201)
          jobs.push_back(acknowledged_of(a.json()));
      }
      svcd.start();
      auto c2 = api();
      // Every acknowledged create is there right after the restart.
      std::map<std::string, int> by_status;
      for (auto& j : jobs) {
        auto r = c2.get("/v1/images/" + j.id, with_key(t.read.key));
        BOOST_TEST(r.status == 200, j.id << ": " << r.summary());
        BOOST_TEST(json_int(r.json(), "cost.credits") == j.credits, j.id);
        ++by_status[json_str(r.json(), "status") + "/" + json_str(r.json(), "cost.status")];
      }
      std::string counts;
      for (auto& [status, n] : by_status)
        counts += " " + status + "=" + std::to_string(n);
      BOOST_TEST_MESSAGE("round " << round << " after the restart:" << counts);
      expect_conserved(observe(c2, t.read.key), "right after the restart");
      ++observations;
    }
  }

  auto c = api();
  auto records = wait_all_terminal(c, t, jobs, 60s, observations);
  BOOST_TEST_MESSAGE(jobs.size() << " acknowledged jobs terminal; " << observations << " observations");
  BOOST_TEST(records.size() == jobs.size(), "no job that was not acknowledged");
  std::int64_t charged = 0, refunded = 0;
  std::set<std::string> ids;
  for (auto& j : jobs) {
    BOOST_TEST_CONTEXT(j.id) {
      BOOST_TEST(ids.insert(j.id).second, "ids are unique");
      auto& r = records[j.id];
      auto status = json_str(r, "status");
      BOOST_TEST(is_terminal_status(status), boost::json::serialize(r));
      // No moderation word, a 15 min queue TTL: nothing should fail.
      BOOST_TEST(status == "succeeded", boost::json::serialize(r));
      BOOST_TEST(json_int(r, "cost.credits") == j.credits);
      auto cost = json_str(r, "cost.status");
      BOOST_TEST((cost == (status == "succeeded" ? "charged" : "refunded")), cost);
      (cost == "charged" ? charged : refunded) += j.credits;
    }
  }
  auto s = observe(c, t.read.key);
  expect_conserved(s, "at the end");
  BOOST_TEST(s.held == 0);
  BOOST_TEST(s.charged == charged);
  BOOST_TEST(s.available + charged == granted);
  BOOST_TEST(count_in_log(svcd, "no open hold to settle") == 0u, "a job was settled twice");
  BOOST_TEST(count_in_log(svcd, "but open holds sum to") == 0u, "balance.held disagreed with the open holds");
}

BOOST_FIXTURE_TEST_CASE(outputs_expiring_while_down_are_swept_after_restart, output_ttl_3s) {
  auto t = recovery_team(*this);
  auto c = api();
  auto body = image_body("swept after a crash");
  body["num_outputs"] = 2;
  auto done = wait_terminal(c, t.read.key, json_str(create_image_ok(c, t.write.key, body), "id"));
  svcd.kill9();
  auto killed_at = now_ms();
  BOOST_REQUIRE_MESSAGE(json_str(done, "status") == "succeeded", done);
  auto id = json_str(done, "id");
  auto expire_at = parse_iso8601_ms(json_str(done, "outputs_expire_at"));
  BOOST_TEST_REQUIRE(killed_at < expire_at, "killed " << killed_at - expire_at << " ms after the outputs expired");
  std::string blobs[] = {svcd.data_dir() + "/blobs/outputs/" + id + ".0.png",
                         svcd.data_dir() + "/blobs/outputs/" + id + ".1.png"};
  for (auto& b : blobs)
    BOOST_TEST_REQUIRE(file_exists(b), b << " missing before the expiry");

  // svcd stays down until the expiry has passed.
  BOOST_REQUIRE(wait_until([&] { return now_ms() > expire_at + 250; }, 10s, 20ms));
  svcd.start();
  auto started = std::chrono::steady_clock::now();
  for (auto& b : blobs)
    BOOST_TEST(wait_until([&] { return !file_exists(b); }, 5s, 20ms), b << " not deleted 5 s after the restart");
  auto took = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - started);
  BOOST_TEST_MESSAGE("outputs deleted " << took.count() << " ms after the restart");
  BOOST_TEST(took <= 3000ms, "swept " << took.count() << " ms after the restart");

  http_client anonymous{svcd.api_url()};
  for (long i = 0; i < 2; ++i) {
    auto url = json_str(done, "output_urls." + std::to_string(i));
    auto r = anonymous.get(target_of(url));
    BOOST_TEST(is_error(r, 410, "url_expired"), r.summary());
  }
  auto c2 = api();
  auto after = get_image(c2, t.read.key, id);
  BOOST_TEST(json_str(after, "status") == "succeeded", "the record outlives its bytes");
  BOOST_TEST(json_str(after, "cost.status") == "charged");
  auto s = observe(c2, t.read.key);
  BOOST_TEST(s.held == 0);
  BOOST_TEST(s.available + s.charged == granted);
}

BOOST_AUTO_TEST_SUITE_END()
