// Data directories written by earlier releases (tests/fixtures/release-*/,
// made by tests/fixtures/make-release-fixture) open and serve the same
// answers: each is copied, svcd starts on the copy with the fixture's
// options (its clock pinned by --clock-start to an hour after the fixture's
// last run, so no stored deadline has passed), and every request kept in
// expected.json must be answered as that release answered it, down to the
// output bytes and the owner's mail queued at its stop.
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "support/http_client.hpp"
#include "support/output_bytes.hpp"
#include "support/printing.hpp"
#include "support/process.hpp"
#include "support/svcd_process.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_release_fixture)

using namespace svc::e2e;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

// Removes what must differ between two runs on the same stored data, and
// nothing else:
// - `generated_at` of /admin/overview: the clock's now, which runs on from
//   --clock-start while the requests are made; and its `renders`, the worker
//   pool's counts at that instant (recovery hands the live jobs to it while
//   the requests start), not stored data;
// - `request_id` of an error: a new id per request;
// - of the fixture's live jobs (one rendering, one queued when it was
//   written), whether one is queued or processing, and their `started_at`,
//   `progress` and `completed_at`: recovery queues both again, this run's
//   one worker starts one of them anew and the requests cancel both, each at
//   this run's time.
// Of the headers only Content-Type is compared: the rate-limit headers count
// this run's requests against buckets refilled by this run's clock, and
// Svc-Request-Id is new per request.
void normalize(json::value& v, const std::set<std::string>& live) {
  if (v.is_array()) {
    for (auto& item : v.get_array())
      normalize(item, live);
    return;
  }
  if (!v.is_object())
    return;
  auto& o = v.get_object();
  if (o.contains("object") && o.at("object") == "overview") {
    o.erase("generated_at");
    o.erase("renders");
  }
  if (o.contains("error") && o.at("error").is_object())
    o.at("error").get_object().erase("request_id");
  if (o.contains("id") && o.at("id").is_string() && live.count(std::string(o.at("id").get_string()))) {
    if (o.contains("status") && (o.at("status") == "queued" || o.at("status") == "processing"))
      o["status"] = "queued or processing";
    o.erase("started_at");
    o.erase("progress");
    o.erase("completed_at");
  }
  for (auto& member : o)
    normalize(member.value(), live);
}

// The mail without the lines each writing makes anew (Date, Message-ID).
std::string mail_without_stamps(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line))
    if (line.rfind("Date:", 0) != 0 && line.rfind("Message-ID:", 0) != 0)
      out += line + "\n";
  return out;
}

std::string copy_of(const fs::path& data) {
  auto dir = make_temp_dir("svc-e2e-release-");
  fs::copy(data, dir, fs::copy_options::recursive | fs::copy_options::overwrite_existing);
  // git keeps no modes; svcd refuses secrets others may read.
  for (auto name : {"admin.token", "url.secret"})
    fs::permissions(fs::path(dir) / name, fs::perms::owner_read | fs::perms::owner_write);
  return dir;
}

std::vector<std::string> strings_of(const json::value& v) {
  std::vector<std::string> out;
  for (auto& s : v.as_array())
    out.emplace_back(s.as_string());
  return out;
}

void check_release(const fs::path& fixture) {
  auto expected = json::parse(read_file((fixture / "expected.json").string())).as_object();
  auto live_list = strings_of(expected.at("live_jobs"));
  std::set<std::string> live(live_list.begin(), live_list.end());
  svcd_process svcd(existing_data_dir{copy_of(fixture / "data")}, strings_of(expected.at("svcd_args")));
  http_client api(svcd.api_url()), admin(svcd.admin_url());
  // Recovery first: the requests see the jobs as the fixture's own run did.
  BOOST_TEST_REQUIRE(wait_until([&] { return admin.get("/readyz").status == 200; }, std::chrono::seconds{30}),
                     svcd.log_tail());
  auto& keys = expected.at("keys").as_object();
  for (auto& item : expected.at("requests").as_array()) {
    auto& q = item.as_object();
    std::string target(q.at("target").as_string()), method(q.at("method").as_string());
    BOOST_TEST_CONTEXT(fixture.filename().string() << ": " << method << " " << target) {
      header_map headers;
      if (q.contains("headers"))
        for (auto& h : q.at("headers").as_object())
          headers[std::string(h.key())] = std::string(h.value().as_string());
      bool on_admin = q.at("listener") == "admin";
      if (on_admin)
        headers["Authorization"] = "Bearer " + svcd.admin_token();
      else if (q.contains("key"))
        headers["X-Api-Key"] = std::string(keys.at(q.at("key").as_string()).as_string());
      std::string body;
      if (q.contains("body")) {
        body = std::string(q.at("body").as_string()); // the bytes the fixture's create sent
        headers["Content-Type"] = "application/json";
      }
      auto r = (on_admin ? admin : api).request(method, target, headers, body);
      auto& want = q.at("answer").as_object();
      BOOST_TEST(r.status == want.at("status").as_int64(), r.summary());
      BOOST_TEST(r.header_or_empty("Content-Type") == std::string(want.at("content_type").as_string()));
      if (want.contains("sha256")) {
        BOOST_TEST(static_cast<int64_t>(r.body.size()) == want.at("bytes").as_int64());
        BOOST_TEST(sha256_hex(r.body) == std::string(want.at("sha256").as_string()));
        continue;
      }
      auto got = r.json(), wanted = want.at("json");
      normalize(got, live);
      normalize(wanted, live);
      BOOST_TEST(json::serialize(got) == json::serialize(wanted));
    }
  }
  // The mail queued at the fixture's stop goes to the outbox (no --smtp).
  auto outbox = fs::path(svcd.data_dir()) / "outbox";
  std::string mail;
  wait_until(
    [&] {
      if (fs::is_directory(outbox))
        for (auto& e : fs::directory_iterator(outbox))
          if (e.path().extension() == ".eml")
            mail = read_file(e.path().string());
      return !mail.empty();
    },
    std::chrono::seconds{30}, std::chrono::milliseconds{50});
  BOOST_TEST(mail_without_stamps(mail) == mail_without_stamps(std::string(expected.at("mail").as_string())));
  BOOST_TEST(svcd.stop() == 0, svcd.log_tail());
}

} // namespace

BOOST_AUTO_TEST_CASE(every_release_fixture_serves_its_recorded_answers) {
  std::vector<fs::path> fixtures;
  for (auto& e : fs::directory_iterator(SVC_RELEASE_FIXTURES_DIR))
    if (e.is_directory() && e.path().filename().string().rfind("release-", 0) == 0)
      fixtures.push_back(e.path());
  std::sort(fixtures.begin(), fixtures.end());
  BOOST_TEST_REQUIRE(!fixtures.empty(), "no release fixture under " SVC_RELEASE_FIXTURES_DIR);
  for (auto& f : fixtures)
    check_release(f);
}

BOOST_AUTO_TEST_SUITE_END()
