// svcctl's command line: per-command help, the version line, and the
// documented exit codes (0 ok, 1 refused, 2 usage, 3 unreachable) -- an
// unknown, abbreviated or valueless option is refused before anything changes;
// --admin-url and --token-file reach svcd without its data directory.
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_svcctl_cli)

using namespace svc::e2e;

namespace {

void check_usage_error(const svcctl_result& r, const std::string& what) {
  BOOST_TEST_CONTEXT(what) {
    BOOST_TEST(r.exit_code == 2, r.err);
    BOOST_TEST(r.out.empty(), "stdout: " << r.out);
    BOOST_TEST(json_str(r.err_json, "error.code") == "usage", "stderr: " << r.err);
  }
}

} // namespace

BOOST_FIXTURE_TEST_SUITE(svcctl_cli, server_fixture)

BOOST_AUTO_TEST_CASE(unknown_abbreviated_and_valueless_options_are_usage_errors) {
  auto teams_before = json_size(ctl_ok({"team", "list"}), "data");
  check_usage_error(ctl({"team", "create", "--name", "A", "--owner-email", "a@example.com", "--credit", "100"}),
                    "--credit (an abbreviation of --credits)");
  check_usage_error(ctl({"team", "create", "--name", "A", "--owner-email", "a@example.com", "--credits"}),
                    "--credits without a value");
  check_usage_error(ctl({"team", "create", "--name", "A", "--owner-email", "a@example.com", "--credits", "ten"}),
                    "--credits not an integer");
  check_usage_error(ctl({"team", "create", "--name", "A", "--owner-email", "a@example.com", "stray"}), "stray word");
  check_usage_error(ctl({"team", "create", "--name", "A", "--name", "B", "--owner-email", "a@example.com"}),
                    "an option twice");
  check_usage_error(ctl({"team", "create", "--name", "A"}), "missing --owner-email");
  check_usage_error(ctl({"team", "frobnicate"}), "unknown command");
  check_usage_error(ctl({}), "no command");
  BOOST_TEST(json_size(ctl_ok({"team", "list"}), "data") == teams_before, "a refused command created a team");
}

BOOST_AUTO_TEST_CASE(every_command_has_its_own_help) {
  auto overview = ctl({"--help"});
  BOOST_TEST(overview.exit_code == 0);
  for (std::string cmd : {"team create", "team limits", "key create", "key rotate", "key revoke", "credits add",
                          "lora add", "actors", "backup", "restore", "team list", "team show", "key list", "job show",
                          "job cancel", "endpoint list", "endpoint disable", "endpoint enable", "team update",
                          "team disable", "team enable"}) {
    BOOST_TEST(overview.out.find("  " + cmd + " ") != std::string::npos, cmd);
    auto space = cmd.find(' ');
    std::vector<std::string> args{cmd.substr(0, space)};
    if (space != std::string::npos)
      args.push_back(cmd.substr(space + 1));
    args.push_back("--help");
    auto help = ctl(args);
    BOOST_TEST(help.exit_code == 0, cmd);
    BOOST_TEST(help.out.find("usage: svcctl [global options] " + cmd) != std::string::npos, help.out);
    BOOST_TEST(help.out.find("exit codes:") != std::string::npos, help.out);
  }
}

BOOST_AUTO_TEST_CASE(version_names_version_and_commit) {
  auto r = ctl({"--version"});
  BOOST_TEST(r.exit_code == 0);
  BOOST_TEST(r.out.rfind("svcctl ", 0) == 0u, r.out);
  BOOST_TEST(r.out.find("(commit ") != std::string::npos, r.out);
}

BOOST_AUTO_TEST_CASE(a_refusal_exits_1_and_no_server_exits_3) {
  auto refused = ctl({"credits", "add", "--team", "team_01J" + std::string(23, '0'), "--amount", "5"});
  BOOST_TEST(refused.exit_code == 1, refused.err);
  BOOST_TEST(!json_str(refused.err_json, "error.code").empty(), refused.err);
  auto empty_dir = make_temp_dir("svc-e2e-ctl-none-");
  auto nothing_there = run_svcctl(empty_dir, {"actors"});
  BOOST_TEST(nothing_there.exit_code == 3, nothing_there.err);
  BOOST_TEST(json_str(nothing_there.err_json, "error.code") == "not_running", nothing_there.err);
  std::filesystem::remove_all(empty_dir);
  BOOST_TEST(svcd.stop() == 0);
  auto stopped = ctl({"actors", "--admin-url", svcd.admin_url()});
  BOOST_TEST(stopped.exit_code == 3, stopped.err);
  BOOST_TEST(json_str(stopped.err_json, "error.code") == "unreachable", stopped.err);
}

BOOST_AUTO_TEST_CASE(admin_url_and_token_file_replace_the_data_directory) {
  auto elsewhere = make_temp_dir("svc-e2e-ctl-remote-");
  auto token_file = elsewhere + "/token";
  std::filesystem::copy_file(svcd.data_dir() + "/admin.token", token_file);
  auto made = run_svcctl(elsewhere, {"--admin-url", svcd.admin_url(), "--token-file", token_file, "team", "create",
                                     "--name", "Remote", "--owner-email", "ops@example.com", "--credits", "7"});
  BOOST_TEST(made.exit_code == 0, made.err);
  BOOST_TEST(json_str(made.out_json, "object") == "team", made.out);
  std::ofstream{token_file} << "not-the-token\n";
  auto wrong = run_svcctl(elsewhere, {"--admin-url", svcd.admin_url(), "--token-file", token_file, "actors"});
  BOOST_TEST(wrong.exit_code == 1, wrong.err);
  BOOST_TEST(json_str(wrong.err_json, "error.code") == "invalid_api_key", wrong.err);
  std::filesystem::remove_all(elsewhere);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE_END()
