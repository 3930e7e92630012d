// svc-bench's load-testers' scenarios against a real svcd: create open loop,
// read and mixed closed and open loop, each with --out (summary.json,
// timeseries.csv and report.html checked), and the refusal of a target that
// is not this machine. Brief runs: what is checked is the harness and its
// files, not the figures.
#include <boost/test/unit_test.hpp>

#include <boost/json.hpp>

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "bench/receiver/test_ca.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"

using namespace std::chrono_literals;

namespace svc::e2e {
namespace {

namespace json = boost::json;

// Runs `argv` to its end (2 minutes at most); its exit code, its stdout and
// stderr in `output` (through the file `log`).
int run_program(const std::vector<std::string>& argv, const std::string& log, std::string& output) {
  int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  BOOST_REQUIRE(fd >= 0);
  const auto pid = spawn(argv, fd, fd);
  ::close(fd);
  auto code = wait_exit(pid, 120s);
  if (!code) {
    ::kill(pid, SIGKILL);
    wait_exit(pid, 5s);
  }
  output = read_file(log);
  return code.value_or(-1);
}

// The receiver's CA, made before svcd starts so svcd can trust it.
struct ca_dir {
  std::string path = make_temp_dir("svc-e2e-bench-ca-");
  ca_dir() { receiver::load_or_make_test_pki(path); }
  ~ca_dir() { std::filesystem::remove_all(path); }
};

// svcd rendering at once, trusting the receiver and taking 32 uploads per
// team at once; two teams whose write keys are in a keys file, their buckets
// raised so a brief run meets no 429.
struct bench_fixture : ca_dir, server_fixture {
  bench_fixture()
    : server_fixture({"--webhook-ca-file", ca_dir::path + "/ca.pem", "--webhook-allow-private", "--render-delay", "0ms",
                      "--max-uploads", "64"}),
      dir(make_temp_dir("svc-e2e-bench-")) {
    std::ofstream keys(keys_file());
    for (int t = 0; t < 2; ++t) {
      const auto team = create_team(100'000'000);
      keys << create_key(team, "write").key << "\n";
      for (const char* bucket : {"images_post", "reads", "files_post"})
        ctl_ok({"team", "limits", "--team", team, "--bucket", bucket, "--capacity", "1000000", "--per-minute",
                "60000000"});
    }
  }
  ~bench_fixture() { std::filesystem::remove_all(dir); }

  std::string keys_file() const { return dir + "/keys.txt"; }

  // Runs svc-bench with `args` after the scenario word and the target.
  int bench(const std::string& scenario, std::vector<std::string> args, std::string& output) {
    std::vector<std::string> argv{SVC_BENCH_PATH, scenario, "--url", svcd.api_url(), "--keys", keys_file()};
    argv.insert(argv.end(), args.begin(), args.end());
    return run_program(argv, dir + "/" + scenario + ".log", output);
  }

  std::string dir;
};

std::vector<std::string> split(const std::string& text, char sep) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string item; std::getline(in, item, sep);)
    out.push_back(item);
  return out;
}

bool is_number(const std::string& s) {
  return !s.empty() && s.find_first_not_of("0123456789.") == std::string::npos;
}

// The three files of a clean run in `out`: the summary's keys, the CSV's
// header and rows (their requests add up to the summary's), the page's charts.
void check_files(const std::string& out, const std::string& scenario, const std::string& mode,
                 const std::vector<std::string>& operations, bool webhooks) {
  const auto summary = json::parse(read_file(out + "/summary.json")).as_object();
  BOOST_TEST(summary.at("scenario").as_string() == scenario);
  BOOST_TEST(summary.at("mode").as_string() == mode);
  for (const char* key : {"rate", "target", "connections", "seconds", "requests", "ok", "ok_per_s", "errors",
                          "statuses", "latency", "operations", "client_cpu_s", "clean", "command", "histogram"})
    BOOST_TEST(summary.contains(key), key);
  for (const char* p : {"p50_ms", "p90_ms", "p99_ms", "p999_ms", "max_ms"})
    BOOST_TEST(summary.at("latency").as_object().contains(p), p);
  for (auto& op : operations)
    BOOST_TEST(summary.at("operations").as_object().contains(op), op);
  BOOST_TEST(summary.contains("open_loop") == (mode == "open"));
  BOOST_TEST(summary.contains("webhooks") == webhooks);
  const auto requests = summary.at("requests").to_number<uint64_t>();
  BOOST_TEST(requests > 0U);
  BOOST_TEST(summary.at("ok").to_number<uint64_t>() == requests); // every answer the one wanted
  if (mode == "open") { // every request due in the window was answered, or is counted as not
    const auto& open = summary.at("open_loop").as_object();
    const auto due = summary.at("rate").to_number<double>() * summary.at("seconds").to_number<double>();
    BOOST_TEST(requests + open.at("unsent").to_number<uint64_t>() + open.at("unfinished").to_number<uint64_t>()
               == static_cast<uint64_t>(due));
  }
  BOOST_TEST(!summary.at("histogram").as_array().empty());

  const auto lines = split(read_file(out + "/timeseries.csv"), '\n');
  BOOST_TEST_REQUIRE(lines.size() >= 3U); // the header and a row per second of the 2 s window at least
  const std::string header = "second,requests,errors,p50_ms,p99_ms";
  BOOST_TEST(lines[0] == (webhooks ? header + ",webhook_deliveries" : header));
  uint64_t sum = 0;
  for (std::size_t i = 1; i < lines.size(); ++i) {
    const auto fields = split(lines[i], ',');
    BOOST_TEST_REQUIRE(fields.size() == (webhooks ? 6U : 5U), lines[i]);
    BOOST_TEST(fields[0] == std::to_string(i - 1));
    for (auto& f : fields)
      BOOST_TEST(is_number(f), lines[i]);
    sum += std::stoull(fields[1]);
  }
  BOOST_TEST(sum == requests);

  const auto html = read_file(out + "/report.html");
  BOOST_TEST(html.find("<svg ") != std::string::npos);
  BOOST_TEST(html.find("</html>") != std::string::npos);
  for (const char* outside : {"<script", "<link", "src=", "href="})
    BOOST_TEST(html.find(outside) == std::string::npos, outside);
}

// A run and the lines its stdout must hold. Closed loop it must be clean
// (exit 0); open loop a svcd slower than the rate (a busy machine) leaves
// requests unsent, which exit 1 reports and the files must account for.
void run_bench(bench_fixture& f, const std::string& scenario, const std::vector<std::string>& args) {
  std::string output;
  const auto code = f.bench(scenario, args, output);
  const bool open = std::find(args.begin(), args.end(), "--rate") != args.end();
  BOOST_TEST_REQUIRE((code == 0 || (open && code == 1)), scenario << " exited " << code << ":\n" << output);
  BOOST_TEST(output.find("\nSUMMARY {") != std::string::npos, output);
  BOOST_TEST(output.find("\nreproduce: ") != std::string::npos, output);
}

} // namespace

BOOST_AUTO_TEST_SUITE(e2e_bench)

BOOST_FIXTURE_TEST_CASE(create_open_loop_writes_its_files, bench_fixture) {
  const auto out = dir + "/create-open";
  run_bench(*this, "create", {"--rate", "100", "--duration", "2s", "--connections", "32", "--out", out});
  check_files(out, "create", "open", {"create"}, false);
}

BOOST_FIXTURE_TEST_CASE(read_closed_and_open_loop_write_their_files, bench_fixture) {
  const auto closed = dir + "/read-closed", open = dir + "/read-open";
  run_bench(*this, "read", {"--duration", "2s", "--connections", "4", "--jobs-per-key", "3", "--out", closed});
  check_files(closed, "read", "closed", {"image", "team"}, false);
  run_bench(*this, "read", {"--rate", "300", "--duration", "2s", "--connections", "16", "--jobs-per-key", "3",
                            "--mix", "image=1,team=1", "--out", open});
  check_files(open, "read", "open", {"image", "team"}, false);
  const auto summary = json::parse(read_file(open + "/summary.json")).as_object();
  const auto& ops = summary.at("operations").as_object();
  const auto images = ops.at("image").as_object().at("requests").to_number<int64_t>();
  const auto teams = ops.at("team").as_object().at("requests").to_number<int64_t>();
  BOOST_TEST(std::abs(images - teams) <= 16, images << " vs " << teams); // the mix, give or take what was unsent
}

BOOST_FIXTURE_TEST_CASE(mixed_closed_and_open_loop_with_webhooks_write_their_files, bench_fixture) {
  const auto closed = dir + "/mixed-closed", open = dir + "/mixed-open";
  run_bench(*this, "mixed", {"--duration", "2s", "--connections", "4", "--ca-dir", ca_dir::path, "--out", closed});
  check_files(closed, "mixed", "closed", {"create", "poll", "download", "upload"}, true);
  const auto summary = json::parse(read_file(closed + "/summary.json")).as_object();
  const auto& ops = summary.at("operations").as_object();
  for (const char* op : {"create", "poll", "upload"})
    BOOST_TEST(ops.at(op).as_object().at("ok").to_number<uint64_t>() > 0U, op);
  const auto& hooks = summary.at("webhooks").as_object();
  BOOST_TEST(hooks.at("deliveries").to_number<uint64_t>() > 0U);
  BOOST_TEST(hooks.at("signature_failures").to_number<uint64_t>() == 0U);

  run_bench(*this, "mixed", {"--rate", "60", "--duration", "2s", "--connections", "16", "--ca-dir", ca_dir::path,
                             "--out", open});
  check_files(open, "mixed", "open", {"create", "poll", "download", "upload"}, true);
}

BOOST_FIXTURE_TEST_CASE(a_target_other_than_loopback_is_refused_without_allow_remote, bench_fixture) {
  // A documentation address (RFC 5737): refused before anything is sent.
  const auto out = dir + "/remote";
  for (const char* scenario : {"mixed", "create", "read"}) {
    std::string output;
    const auto code = run_program(
      {SVC_BENCH_PATH, scenario, "--url", "http://192.0.2.10:8080", "--keys", keys_file(), "--out", out},
      dir + "/refused.log", output);
    BOOST_TEST(code == 2, scenario);
    BOOST_TEST(output.find("--allow-remote") != std::string::npos, output);
    BOOST_TEST(!std::filesystem::exists(out), scenario);
  }
}

} // namespace svc::e2e

BOOST_AUTO_TEST_SUITE_END()
