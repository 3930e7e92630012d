// The admin listener and svcctl: health probes, the admin token (mode 0600,
// required on operator routes), the actor listing, metrics, and every svcctl
// command printing its documented JSON, or a JSON error on failure.
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <sys/stat.h>

#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"

BOOST_AUTO_TEST_SUITE(e2e_admin)

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// Whether svcctl failed the documented way: non-zero, nothing on stdout,
// a JSON error on stderr.
void check_failed_as_json(const svcctl_result& r, const std::string& what) {
  BOOST_TEST_CONTEXT(what) {
    BOOST_TEST(r.exit_code != 0);
    BOOST_TEST(r.out.empty(), "stdout: " << r.out);
    BOOST_TEST(r.err_json.is_object(), "stderr is not JSON: " << r.err);
    BOOST_TEST(!json_str(r.err_json, "error.code").empty(), "stderr: " << r.err);
  }
}

std::set<std::string> kinds_of(const boost::json::value& list) {
  auto kinds = data_strings(list, "kind");
  return {kinds.begin(), kinds.end()};
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(admin, server_fixture)

BOOST_AUTO_TEST_CASE(health_and_ready_need_no_token) {
  auto c = admin();
  for (std::string path : {"/healthz", "/readyz"}) {
    auto r = c.get(path);
    BOOST_TEST(r.status == 200, path << ": " << r.summary());
    BOOST_TEST(json_str(r.json(), "status") == "ok", path << ": " << r.summary());
  }
}

BOOST_AUTO_TEST_CASE(operator_routes_need_the_token) {
  auto c = admin();
  for (std::string path : {"/admin/actors", "/metrics"}) {
    BOOST_TEST_CONTEXT(path) {
      auto missing = c.get(path);
      BOOST_TEST(is_error(missing, 401, "missing_api_key"), missing.summary());
      auto wrong = c.get(path, {{"Authorization", "Bearer not-the-token"}});
      BOOST_TEST(is_error(wrong, 401, "invalid_api_key"), wrong.summary());
    }
  }
  auto create = c.request("POST", "/admin/teams", {}, R"({"name": "x", "owner_email": "x@example.com"})");
  BOOST_TEST(create.status == 401, create.summary());
  // A team API key is no admin token.
  auto t = create_team_with_keys();
  auto with_api_key = c.get("/admin/actors", {{"Authorization", "Bearer " + t.full.key}});
  BOOST_TEST(is_error(with_api_key, 401, "invalid_api_key"), with_api_key.summary());
}

BOOST_AUTO_TEST_CASE(admin_token_file_is_private) {
  struct stat st {};
  BOOST_REQUIRE(::stat((svcd.data_dir() + "/admin.token").c_str(), &st) == 0);
  BOOST_TEST((st.st_mode & 0777) == 0600u, "mode " << std::oct << (st.st_mode & 0777));
  BOOST_TEST(svcd.admin_token().size() >= 16u);
  // The token survives a restart (operators keep using it).
  auto token = svcd.admin_token();
  BOOST_TEST(svcd.restart() == 0);
  BOOST_TEST(svcd.admin_token() == token);
}

BOOST_AUTO_TEST_CASE(actors_lists_buckets_after_a_team_request) {
  auto t = create_team_with_keys();
  auto api_client = api();
  BOOST_TEST(api_client.get("/v1/team", with_key(t.read.key)).status == 200);
  auto c = admin();

  auto all = c.get("/admin/actors?limit=1000", admin_auth());
  BOOST_TEST(all.status == 200, all.summary());
  BOOST_TEST(json_str(all.json(), "object") == "list");
  BOOST_TEST(kinds_of(all.json()).count("bucket") == 1u, all.body.substr(0, 500));

  auto buckets = c.get("/admin/actors?kind=bucket", admin_auth()).json();
  BOOST_TEST(json_size(buckets, "data") >= 1);
  BOOST_TEST((kinds_of(buckets) == std::set<std::string>{"bucket"}));
  bool team_bucket = false;
  for (long i = 0; i < json_size(buckets, "data"); ++i) {
    auto p = "data." + std::to_string(i);
    BOOST_TEST(!json_str(buckets, p + ".id").empty());
    BOOST_TEST(json_at(buckets, p + ".state") != nullptr);
    BOOST_TEST(json_int(buckets, p + ".mailbox").has_value());
    BOOST_TEST(json_int(buckets, p + ".age_ms").has_value());
    team_bucket = team_bucket || json_str(buckets, p + ".team") == t.id;
  }
  BOOST_TEST(team_bucket, "a bucket of the team that made a request");

  auto of_team = c.get("/admin/actors?team=" + t.id, admin_auth()).json();
  BOOST_TEST(json_size(of_team, "data") >= 1);
  for (long i = 0; i < json_size(of_team, "data"); ++i)
    BOOST_TEST(json_str(of_team, "data." + std::to_string(i) + ".team") == t.id);

  auto one = c.get("/admin/actors?limit=1", admin_auth()).json();
  BOOST_TEST(json_size(one, "data") == 1);
}

BOOST_AUTO_TEST_CASE(metrics_are_prometheus_text) {
  auto t = create_team_with_keys();
  BOOST_TEST(api().get("/v1/team", with_key(t.read.key)).status == 200);
  auto r = admin().get("/metrics", admin_auth());
  BOOST_TEST(r.status == 200, r.summary());
  BOOST_TEST(r.header_or_empty("Content-Type").find("text/plain") == 0, r.header_or_empty("Content-Type"));
  BOOST_TEST(r.body.find("# TYPE ") != std::string::npos, r.body.substr(0, 300));
}

BOOST_AUTO_TEST_CASE(svcctl_team_create_key_create_credits_add) {
  auto team = ctl_ok({"team", "create", "--name", "Acme", "--owner-email", "ops@acme.example", "--credits", "500"});
  auto team_id = json_str(team, "id");
  BOOST_TEST(team_id.rfind("team_", 0) == 0, team);
  BOOST_TEST(json_str(team, "object") == "team");
  BOOST_TEST(json_str(team, "name") == "Acme");
  BOOST_TEST(json_str(team, "owner_email") == "ops@acme.example");
  BOOST_TEST(json_str(team, "default_api_version") == "2026-09-01");
  BOOST_TEST(json_int(team, "balance_low_threshold").has_value());
  BOOST_TEST(json_at(team, "rate_limit_overrides") != nullptr);
  BOOST_TEST(parse_iso8601_ms(json_str(team, "created_at")) > 0);

  auto key = ctl_ok({"key", "create", "--team", team_id, "--scope", "read"});
  BOOST_TEST(json_str(key, "id").rfind("key_", 0) == 0, key);
  BOOST_TEST(is_plaintext_key(json_str(key, "key")), key);
  BOOST_TEST(json_str(key, "scope") == "read");
  BOOST_TEST(json_str(key, "team_id") == team_id);

  auto c = api();
  auto balance = c.get("/v1/balance", with_key(json_str(key, "key")));
  BOOST_TEST(json_int(balance.json(), "available") == 500, balance.summary());

  auto added = ctl_ok({"credits", "add", "--team", team_id, "--amount", "250"});
  BOOST_TEST(json_str(added, "object") == "balance", added);
  BOOST_TEST(json_int(added, "available") == 750);
  BOOST_TEST(json_int(added, "held") == 0);
  BOOST_TEST(json_int(c.get("/v1/balance", with_key(json_str(key, "key"))).json(), "available") == 750);

  auto no_credits = ctl_ok({"team", "create", "--name", "Zero", "--owner-email", "z@example.com"});
  auto zero_key = ctl_ok({"key", "create", "--team", json_str(no_credits, "id"), "--scope", "full"});
  BOOST_TEST(json_int(c.get("/v1/balance", with_key(json_str(zero_key, "key"))).json(), "available") == 0);
}

BOOST_AUTO_TEST_CASE(svcctl_key_rotate_prints_new_and_previous) {
  auto t = create_team_with_keys();
  auto out = ctl_ok({"key", "rotate", "--key", t.full.id});
  BOOST_TEST(json_str(out, "id").rfind("key_", 0) == 0, out);
  BOOST_TEST(is_plaintext_key(json_str(out, "key")));
  BOOST_TEST(json_str(out, "scope") == "full");
  BOOST_TEST(json_str(out, "team_id") == t.id);
  BOOST_TEST(json_str(out, "previous_key.id") == t.full.id);
  BOOST_TEST(parse_iso8601_ms(json_str(out, "previous_key.deactivate_at")) > 0, out);
}

BOOST_AUTO_TEST_CASE(svcctl_team_limits_prints_the_team) {
  auto t = create_team_with_keys();
  auto out = ctl_ok({"team", "limits", "--team", t.id, "--bucket", "images_post", "--capacity", "500", "--per-minute",
                     "250"});
  BOOST_TEST(json_str(out, "object") == "team", out);
  BOOST_TEST(json_int(out, "rate_limit_overrides.images_post.capacity") == 500);
  BOOST_TEST(json_int(out, "rate_limit_overrides.images_post.per_minute") == 250);
  auto team = api().get("/v1/team", with_key(t.read.key)).json();
  BOOST_TEST(json_int(team, "rate_limit_overrides.images_post.capacity") == 500);

  check_failed_as_json(ctl({"team", "limits", "--team", t.id, "--bucket", "no_such_bucket", "--capacity", "5",
                            "--per-minute", "5"}),
                       "unknown bucket");
}

BOOST_AUTO_TEST_CASE(svcctl_team_limits_sets_the_teams_share_of_the_engines) {
  auto t = create_team_with_keys();
  auto out = ctl_ok({"team", "limits", "--team", t.id, "--weight", "2.5", "--max-concurrent", "1"});
  BOOST_TEST(json_str(out, "object") == "team", out);
  BOOST_TEST(json_at(out, "renders.weight")->to_number<double>() == 2.5, out);
  BOOST_TEST(json_int(out, "renders.max_concurrent") == 1);
  auto shown = ctl_ok({"team", "show", "--team", t.id});
  BOOST_TEST(json_int(shown, "renders.max_concurrent") == 1, "stored: " << shown);
  auto team = api().get("/v1/team", with_key(t.read.key)).json();
  BOOST_TEST(!json_at(team, "renders"), "an operator's setting, not shown to the team");

  auto bad = ctl({"team", "limits", "--team", t.id, "--weight", "0"});
  check_failed_as_json(bad, "a weight of 0");
  BOOST_TEST(json_str(bad.err_json, "error.param") == "weight", bad.err);
  BOOST_TEST(ctl({"team", "limits", "--team", t.id, "--weight", "2", "--bucket", "reads"}).exit_code != 0,
             "a bucket and a weight at once are refused");
  BOOST_TEST(json_int(ctl_ok({"team", "show", "--team", t.id}), "renders.max_concurrent") == 1, "nothing changed");
}

BOOST_AUTO_TEST_CASE(svcctl_lora_add_is_listed) {
  auto t = create_team_with_keys();
  auto out = ctl_ok({"lora", "add", "--slug", "e2e-ink", "--name", "E2E Ink", "--keywords", "ink,sketch,line"});
  BOOST_TEST(json_str(out, "id").rfind("lora_", 0) == 0, out);
  BOOST_TEST(json_str(out, "object") == "lora");
  BOOST_TEST(json_str(out, "slug") == "e2e-ink");
  BOOST_TEST(json_str(out, "name") == "E2E Ink");
  BOOST_TEST(json_size(out, "keywords") == 3);
  BOOST_TEST(json_str(out, "keywords.1") == "sketch");
  auto* builtin = json_at(out, "builtin");
  BOOST_TEST((builtin && builtin->is_bool() && !builtin->as_bool()), out);

  auto list = api().get("/v1/loras?limit=100", with_key(t.read.key)).json();
  bool listed = false;
  for (long i = 0; i < json_size(list, "data"); ++i)
    listed = listed || json_str(list, "data." + std::to_string(i) + ".id") == json_str(out, "id");
  BOOST_TEST(listed);
}

BOOST_AUTO_TEST_CASE(svcctl_actors_prints_the_list) {
  auto t = create_team_with_keys();
  BOOST_TEST(api().get("/v1/team", with_key(t.read.key)).status == 200);
  auto all = ctl_ok({"actors"});
  BOOST_TEST(json_str(all, "object") == "list", all);
  BOOST_TEST(kinds_of(all).count("bucket") == 1u);
  auto buckets = ctl_ok({"actors", "--kind", "bucket", "--team", t.id});
  BOOST_TEST(json_size(buckets, "data") >= 1, buckets);
  for (long i = 0; i < json_size(buckets, "data"); ++i) {
    BOOST_TEST(json_str(buckets, "data." + std::to_string(i) + ".kind") == "bucket");
    BOOST_TEST(json_str(buckets, "data." + std::to_string(i) + ".team") == t.id);
  }
}

BOOST_AUTO_TEST_CASE(svcctl_backup_is_restorable) {
  auto t = create_team_with_keys(321);
  auto dir = make_temp_dir("svc-e2e-backup-");
  auto out = ctl({"backup", "--to", dir});
  BOOST_TEST(out.exit_code == 0, out.err);
  BOOST_TEST(json_str(out.out_json, "object") == "backup", out.out);
  auto path = json_str(out.out_json, "path");
  BOOST_TEST(!path.empty());
  BOOST_TEST(std::filesystem::exists(path), path);
  auto restored_dir = std::filesystem::is_directory(path) ? path : std::filesystem::path{path}.parent_path().string();
  bool has_files = std::filesystem::exists(restored_dir) && !std::filesystem::is_empty(restored_dir);
  BOOST_REQUIRE_MESSAGE(has_files, "backup wrote nothing to " << restored_dir);
  if (restored_dir != dir) {
    std::error_code ignored;
    std::filesystem::remove_all(dir, ignored);
  }

  // A server started on the backup knows the team and its keys.
  svcd_process restored{existing_data_dir{restored_dir}};
  http_client c{restored.api_url()};
  auto r = c.get("/v1/balance", with_key(t.read.key));
  BOOST_TEST(r.status == 200, r.summary());
  BOOST_TEST(json_int(r.json(), "available") == 321);
  BOOST_TEST(restored.stop() == 0);
}

// Each backup reads the whole store and the blobs on a thread of its own:
// one runs at a time, so repeated requests cannot pile up threads.
BOOST_AUTO_TEST_CASE(one_backup_runs_at_a_time) {
  // A 256 MiB blob (sparse, so cheap to make) keeps the first one copying.
  {
    std::filesystem::create_directories(svcd.data_dir() + "/blobs/outputs");
    std::ofstream big{svcd.data_dir() + "/blobs/outputs/img_01M8YDHN51Q86X6EZQBW2B1MTC.0.png", std::ios::binary};
    big.seekp((std::streamoff{256} << 20) - 1);
    big.put('x');
  }
  auto parent = make_temp_dir("svc-e2e-backups-");
  auto body = [&](const std::string& name) { return R"({"to": ")" + parent + "/" + name + R"("})"; };
  response first;
  std::thread first_backup{[&] { first = admin().request("POST", "/admin/backup", admin_auth(), body("first")); }};
  bool started = wait_until([&] { return std::filesystem::exists(parent + "/first/data.mdb"); }, 10s, 1ms);
  auto second = admin().request("POST", "/admin/backup", admin_auth(), body("second"));
  first_backup.join();
  BOOST_REQUIRE(started);
  BOOST_TEST(first.status == 200, first.summary());
  BOOST_TEST(json_int(first.json(), "blobs") == 1);
  BOOST_TEST(is_error(second, 409, "invalid_state"), second.summary());
  BOOST_TEST(!std::filesystem::exists(parent + "/second"));
  auto third = admin().request("POST", "/admin/backup", admin_auth(), body("third"));
  BOOST_TEST(third.status == 200, "once the first ended: " << third.summary());
  std::filesystem::remove_all(parent);
}

BOOST_AUTO_TEST_CASE(svcctl_failures_are_json_on_stderr) {
  auto t = create_team_with_keys();
  std::string unknown_team = "team_01J" + std::string(23, '0');
  check_failed_as_json(ctl({"credits", "add", "--team", unknown_team, "--amount", "5"}), "credits add, unknown team");
  check_failed_as_json(ctl({"credits", "add", "--team", "bogus", "--amount", "5"}), "credits add, malformed team");
  check_failed_as_json(ctl({"key", "create", "--team", unknown_team, "--scope", "read"}), "key create, unknown team");
  check_failed_as_json(ctl({"key", "create", "--team", t.id, "--scope", "admin"}), "key create, bad scope");
  check_failed_as_json(ctl({"team", "limits", "--team", unknown_team, "--bucket", "reads", "--capacity", "5",
                            "--per-minute", "5"}),
                       "team limits, unknown team");
  check_failed_as_json(ctl({"key", "rotate", "--key", "key_01J" + std::string(23, '0')}), "key rotate, unknown key");
  check_failed_as_json(ctl({"team", "create", "--name", "No Email"}), "team create without --owner-email");
  check_failed_as_json(ctl({"no-such-command"}), "unknown command");

  BOOST_TEST(svcd.stop() == 0);
  check_failed_as_json(ctl({"actors"}), "server stopped");
}

// Without --etcd there is no cluster: /admin/cluster says so, and no shard moves.
BOOST_AUTO_TEST_CASE(a_single_node_is_not_a_cluster_and_moves_no_shard) {
  auto c = admin();
  auto r = c.get("/admin/cluster", admin_auth());
  BOOST_TEST_REQUIRE(r.status == 200, r.summary());
  BOOST_TEST(boost::json::serialize(r.json()) == R"({"clustered":false})");
  r = c.request("POST", "/admin/shards/0/move", admin_auth(), R"({"to":"n2"})");
  BOOST_TEST(is_error(r, 409, "invalid_state"), r.summary());
  r = c.get("/admin/shards/0/move", admin_auth());
  BOOST_TEST(is_error(r, 404, "resource_not_found"), r.summary());
  auto ctl_run = ctl({"shard", "move", "0", "--to", "n2"});
  BOOST_TEST(ctl_run.exit_code == 1, ctl_run.out << ctl_run.err);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
