// svcctl backup + restore: a backup carries the store, the blobs, url.secret
// and admin.token. Restored into an empty directory with --adopt-secrets, a
// second svcd serves the same output bytes under the same signed URLs, the
// same balances, and obeys the same admin token; without it, the same bytes
// and balances under a token and URL secret of its own. Restore refuses a
// directory that is not empty.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <map>
#include <string>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/output_bytes.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_backup)

using namespace svc::e2e;

namespace {

// `<job id>/<index>` -> SHA-256 of the output's bytes, over every output of
// `job_ids`, fetched by the URLs the server signs now; `urls` collects them.
std::map<std::string, std::string> output_digests(http_client& c, const std::string& key,
                                                  const std::vector<std::string>& job_ids,
                                                  std::vector<std::string>& urls) {
  std::map<std::string, std::string> digests;
  for (auto& id : job_ids) {
    auto job = get_image(c, key, id);
    for (long i = 0; i < json_size(job, "output_urls"); ++i) {
      auto url = json_str(job, "output_urls." + std::to_string(i));
      auto r = c.get(target_of(url));
      BOOST_TEST_REQUIRE(r.status == 200, url << ": " << r.summary());
      digests[id + "/" + std::to_string(i)] = sha256_hex(r.body);
      urls.push_back(url);
    }
  }
  return digests;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(restored_backup_serves_the_same_outputs_balances_and_token, server_fixture) {
  auto rich = create_team_with_keys(5000), poor = create_team_with_keys(70);
  auto c = api();
  std::vector<std::string> jobs;
  for (int outputs : {1, 2}) {
    auto body = image_body("a box number " + std::to_string(outputs));
    body["num_outputs"] = outputs;
    auto done = wait_terminal(c, rich.read.key, json_str(create_image_ok(c, rich.write.key, body), "id"));
    BOOST_TEST_REQUIRE(json_str(done, "status") == "succeeded", done);
    jobs.push_back(json_str(done, "id"));
  }
  std::vector<std::string> original_urls, restored_urls;
  auto digests = output_digests(c, rich.read.key, jobs, original_urls);
  BOOST_TEST_REQUIRE(digests.size() == 3u);
  auto rich_balance = get_balance(c, rich.read.key), poor_balance = get_balance(c, poor.read.key);

  auto backup_dir = make_temp_dir("svc-e2e-backup-");
  auto backup = ctl_ok({"backup", "--to", backup_dir});
  BOOST_TEST(json_int(backup, "blobs") >= 3, backup);

  auto parent = make_temp_dir("svc-e2e-restore-");
  auto restored_dir = parent + "/data";
  auto restore = run_svcctl(restored_dir, {"restore", "--from", backup_dir, "--adopt-secrets"});
  BOOST_TEST_REQUIRE(restore.exit_code == 0, restore.err);
  BOOST_TEST(json_int(restore.out_json, "blobs") == json_int(backup, "blobs"), restore.out);
  BOOST_TEST(json_str(restore.out_json, "secrets") == "adopted", restore.out);
  BOOST_TEST(read_file(restored_dir + "/admin.token") == read_file(svcd.data_dir() + "/admin.token"));
  auto again = run_svcctl(restored_dir, {"restore", "--from", backup_dir});
  BOOST_TEST(again.exit_code == 1, again.err);
  BOOST_TEST(json_str(again.err_json, "error.code") == "restore_failed", again.err);

  BOOST_TEST(svcd.stop() == 0, "the original is gone: the restored copy must stand alone");
  svcd_process restored{existing_data_dir{restored_dir}};
  http_client rc{restored.api_url()};
  BOOST_TEST((output_digests(rc, rich.read.key, jobs, restored_urls) == digests), "the restored outputs differ");
  for (auto& url : original_urls) {
    auto r = rc.get(target_of(url));
    BOOST_TEST(r.status == 200, "the original URL, signed before the backup: " << url << ": " << r.summary());
  }
  auto restored_rich = get_balance(rc, rich.read.key), restored_poor = get_balance(rc, poor.read.key);
  BOOST_TEST(restored_rich.available == rich_balance.available);
  BOOST_TEST(restored_rich.held == rich_balance.held);
  BOOST_TEST(restored_poor.available == poor_balance.available);
  auto shown = run_svcctl(restored_dir, {"team", "show", "--team", rich.id});
  BOOST_TEST(shown.exit_code == 0, "the copied admin token opens the restored server: " << shown.err);
  BOOST_TEST(json_int(shown.out_json, "balance.available") == rich_balance.available, shown.out);
  BOOST_TEST(restored.stop() == 0);

  // Without --adopt-secrets (a backup from elsewhere): the same store and
  // outputs, but svcd makes its own token and URL secret, so the backup's
  // maker holds neither.
  auto fresh_dir = parent + "/fresh";
  auto fresh_restore = run_svcctl(fresh_dir, {"restore", "--from", backup_dir});
  BOOST_TEST_REQUIRE(fresh_restore.exit_code == 0, fresh_restore.err);
  BOOST_TEST(json_str(fresh_restore.out_json, "secrets") == "fresh", fresh_restore.out);
  svcd_process fresh{existing_data_dir{fresh_dir}};
  BOOST_TEST(read_file(fresh_dir + "/admin.token") != read_file(restored_dir + "/admin.token"));
  http_client fc{fresh.api_url()};
  std::vector<std::string> fresh_urls;
  BOOST_TEST((output_digests(fc, rich.read.key, jobs, fresh_urls) == digests), "the restored outputs differ");
  for (auto& url : original_urls)
    BOOST_TEST(fc.get(target_of(url)).status != 200, "a URL the backup's secret signed: " << url);
  BOOST_TEST(run_svcctl(fresh_dir, {"team", "show", "--team", rich.id}).exit_code == 0, "svcctl reads the new token");
  BOOST_TEST(fresh.stop() == 0);
  std::filesystem::remove_all(backup_dir);
  std::filesystem::remove_all(parent);
}

BOOST_AUTO_TEST_SUITE_END()
