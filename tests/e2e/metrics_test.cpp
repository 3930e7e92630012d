// GET /metrics after a mixed workload (images created, settled and
// cancelled, a webhook delivered and one failing, a 404, an admin call):
// `promtool check metrics` accepts the scrape, and the counters moved as the
// workload says, with API and admin traffic apart.
#define BOOST_TEST_MODULE e2e_metrics
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <string>
#include <unistd.h>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

using namespace svc::e2e;
using namespace std::chrono_literals;

namespace {

// One worker and slow renders, so a job can be cancelled while it runs; quick retries.
struct workload_server : webhook_fixture {
  workload_server()
    : webhook_fixture({"--retry-schedule", "100ms,100ms,100ms,100ms", "--render-delay", "300ms", "--workers", "1"}) {}
};

// The value of the sample `series` (name and labels exactly as rendered), or -1 when the scrape has none.
double sample(const std::string& scrape, const std::string& series) {
  auto at = scrape.find("\n" + series + " ");
  if (at == std::string::npos)
    return -1;
  return std::stod(scrape.substr(at + series.size() + 2));
}

std::string requests(const std::string& listener, const std::string& route, const std::string& method,
                     const std::string& cls) {
  return "svc_http_request_duration_seconds_count{listener=\"" + listener + "\",route=\"" + route + "\",method=\""
         + method + "\",class=\"" + cls + "\"}";
}

struct promtool_result {
  int exit_code = -1;
  std::string output;
};

// Runs `promtool check metrics` on `scrape` (through its stdin).
promtool_result promtool_check(const std::string& scrape) {
  auto dir = make_temp_dir("svc-promtool-");
  auto in = dir + "/scrape.txt", out = dir + "/out.txt";
  if (auto* f = std::fopen(in.c_str(), "w")) {
    std::fwrite(scrape.data(), 1, scrape.size(), f);
    std::fclose(f);
  }
  int fd = ::open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
  auto pid = spawn({"/bin/sh", "-c", "exec promtool check metrics < " + in}, fd, fd);
  ::close(fd);
  promtool_result r;
  r.exit_code = wait_exit(pid, 30s).value_or(-1);
  r.output = read_file(out);
  std::remove(in.c_str());
  std::remove(out.c_str());
  ::rmdir(dir.c_str());
  return r;
}

} // namespace

BOOST_FIXTURE_TEST_CASE(a_scrape_after_a_mixed_workload_passes_promtool_and_counts_it, workload_server) {
  auto t = create_webhook_team(*this);
  auto c = api();
  auto good = create_endpoint_ok(c, t.write.key, hooks->url());
  auto bad = create_endpoint_ok(c, t.write.key, "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/");

  auto cancelled = json_str(create_image_ok(c, t.write.key, image_body("cancelled while it renders")), "id");
  BOOST_REQUIRE(json_str(wait_status(c, t.read.key, cancelled, "processing"), "status") == "processing");
  auto cancel = c.request("POST", "/v1/images/" + cancelled + "/cancel", with_key(t.write.key));
  BOOST_REQUIRE_MESSAGE(cancel.status == 200, cancel.summary());
  auto done = json_str(create_image_ok(c, t.write.key, image_body("rendered")), "id");
  BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, done), "status") == "succeeded");
  BOOST_TEST(c.get("/v1/no_such_route", with_key(t.read.key)).status == 404);
  BOOST_TEST(admin().get("/admin/actors", admin_auth()).status == 200);

  auto of_this_run = [&](const receipt& rc) {
    return (rc.type == "image.completed" && json_str(rc.envelope, "data.id") == done)
           || (rc.type == "image.cancelled" && json_str(rc.envelope, "data.id") == cancelled);
  };
  BOOST_REQUIRE(wait_for_receipts(*hooks, 2, of_this_run, 10s));
  auto failed = wait_deliveries(c, t.read.key, json_str(bad, "id"),
                                [](auto& rows) { return !rows.empty(); }, 10s);
  BOOST_REQUIRE_MESSAGE(!failed.empty(), "no failed delivery to the closed port");

  auto scrape = admin().get("/metrics", admin_auth());
  BOOST_REQUIRE_MESSAGE(scrape.status == 200, scrape.summary());
  auto& m = scrape.body;
  auto lint = promtool_check(m);
  BOOST_TEST(lint.exit_code == 0, lint.output);
  BOOST_TEST(lint.output.empty(), lint.output);

  BOOST_TEST(sample(m, requests("api", "/v1/images", "POST", "2xx")) == 2);
  BOOST_TEST(sample(m, requests("api", "/v1/images/{id}/cancel", "POST", "2xx")) == 1);
  BOOST_TEST(sample(m, requests("api", "/v1/webhook_endpoints", "POST", "2xx")) == 2);
  BOOST_TEST(sample(m, requests("api", "unmatched", "GET", "4xx")) == 1);
  BOOST_TEST(sample(m, requests("admin", "/admin/actors", "GET", "2xx")) == 1);
  BOOST_TEST(m.find("listener=\"api\",route=\"/metrics\"") == std::string::npos, "an admin scrape is no API request");
  BOOST_TEST(m.find("listener=\"api\",route=\"/admin/") == std::string::npos);

  BOOST_TEST(sample(m, "svc_jobs_created_total{kind=\"image\"}") == 2);
  BOOST_TEST(sample(m, "svc_jobs_settled_total{kind=\"image\",outcome=\"succeeded\"}") == 1);
  BOOST_TEST(sample(m, "svc_jobs_settled_total{kind=\"image\",outcome=\"cancelled\"}") == 1);
  auto held = sample(m, "svc_credits_held_total");
  BOOST_TEST(held > 0);
  BOOST_TEST(sample(m, "svc_credits_charged_total") + sample(m, "svc_credits_refunded_total") == held);
  BOOST_TEST(sample(m, "svc_render_duration_seconds_count{kind=\"image\"}") >= 1);

  BOOST_TEST(sample(m, "svc_webhook_attempts_total{outcome=\"2xx\"}") >= 2); // both jobs' events
  BOOST_TEST(sample(m, "svc_webhook_attempts_total{outcome=\"connect_refused\"}") >= 1, m);
  BOOST_TEST(sample(m, "svc_webhook_attempt_duration_seconds_count") >= 3);

  BOOST_TEST(sample(m, "svc_http_open_connections{listener=\"admin\"}") >= 1);
  BOOST_TEST(sample(m, "svc_actors{kind=\"job_directory\"}") == 1, m);
  BOOST_TEST(sample(m, "svc_store_map_used_bytes") > 0);
  BOOST_TEST(sample(m, "svc_store_commit_duration_seconds_count") >= 1);
  BOOST_TEST(sample(m, "svc_store_commit_batches_count") >= 1);
  BOOST_TEST(sample(m, "svc_store_commit_batches_sum") >= sample(m, "svc_store_commit_batches_count"));
  BOOST_TEST(m.find("\nsvc_build_info{version=\"") != std::string::npos);
  BOOST_TEST(sample(m, "process_open_fds") > 3);
  BOOST_TEST(sample(m, "process_resident_memory_bytes") > 1e6);
  auto started = sample(m, "process_start_time_seconds");
  BOOST_TEST((started > unix_now() - 600 && started <= unix_now() + 1), started);

  // A second scrape counts the first under the admin listener only.
  auto again = admin().get("/metrics", admin_auth()).body;
  BOOST_TEST(sample(again, requests("admin", "/metrics", "GET", "2xx")) == 1);
}
