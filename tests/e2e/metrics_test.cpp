// GET /metrics after a mixed workload (images created, settled and
// cancelled, a webhook delivered and one failing, a 404, an admin call):
// `promtool check metrics` accepts the scrape, and the counters moved as the
// workload says, with API and admin traffic apart. Then the gauges an
// operator reads across restarts: blob bytes against the files on disk, and
// endpoints disabled right now.
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <cstdio>
#include <fcntl.h>
#include <filesystem>
#include <string>
#include <unistd.h>

#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/process.hpp"
#include "support/server_fixture.hpp"
#include "support/wait.hpp"
#include "support/webhook_receiver_fixture.hpp"

BOOST_AUTO_TEST_SUITE(e2e_metrics)

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

struct blob_files {
  double bytes = 0, count = 0;
};

// What the data directory's blob folder holds (a put's temp files are no blob yet).
blob_files blobs_on_disk(const std::string& data_dir) {
  namespace fs = std::filesystem;
  blob_files found;
  std::error_code ec;
  for (fs::recursive_directory_iterator it{data_dir + "/blobs", ec}, end; !ec && it != end; it.increment(ec))
    if (it->is_regular_file(ec) && it->path().filename().string().find(".tmp-") == std::string::npos) {
      found.bytes += static_cast<double>(it->file_size(ec));
      found.count += 1;
    }
  return found;
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
  // The built-in renderer is the one local engine: its slots, those held (0 or 1: the job
  // that succeeded may still be settling), and its render.
  BOOST_TEST(sample(m, "svc_engine_slots{engine=\"local\"}") >= 1);
  BOOST_TEST(sample(m, "svc_engine_slots_busy{engine=\"local\"}") >= 0);
  BOOST_TEST(sample(m, "svc_engine_slots_busy{engine=\"local\"}") <= 1);
  BOOST_TEST(sample(m, "svc_engine_renders_total{engine=\"local\",outcome=\"succeeded\"}") >= 1); // the cancelled one may have finished
  BOOST_TEST(sample(m, "svc_engine_render_duration_seconds_count{engine=\"local\"}") >= 1);

  BOOST_TEST(sample(m, "svc_webhook_attempts_total{outcome=\"2xx\"}") >= 2); // both jobs' events
  BOOST_TEST(sample(m, "svc_webhook_attempts_total{outcome=\"connect_refused\"}") >= 1, m);
  BOOST_TEST(sample(m, "svc_webhook_attempt_duration_seconds_count") >= 3);
  // Event creation to a successful delivery: once per 2xx attempt, never for a failed one.
  BOOST_TEST(sample(m, "svc_webhook_delivery_latency_seconds_count")
             == sample(m, "svc_webhook_attempts_total{outcome=\"2xx\"}"));
  BOOST_TEST(sample(m, "svc_webhook_delivery_latency_seconds_sum") > 0);
  BOOST_TEST(sample(m, "svc_webhook_disabled_endpoints") == 0);

  auto disk = blobs_on_disk(svcd.data_dir());
  BOOST_TEST(disk.count >= 1, "the rendered image's output is on disk");
  BOOST_TEST(sample(m, "svc_blob_bytes") == disk.bytes);
  BOOST_TEST(sample(m, "svc_blobs") == disk.count);

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

namespace {

// Loopback receivers allowed (nothing is delivered to them here).
struct gauges_server : server_fixture {
  gauges_server() : server_fixture({"--webhook-allow-private"}) {}

  std::string scrape() {
    auto r = admin().get("/metrics", admin_auth());
    BOOST_REQUIRE_MESSAGE(r.status == 200, r.summary());
    return r.body;
  }
  // Waits until the scrape's `series` reads `value`; whether it did within 10 s.
  bool reads(const std::string& series, double value) {
    return wait_until([&] { return sample(scrape(), series) == value; }, 10s, 50ms);
  }
  std::string render(const team_keys& t, const std::string& prompt) {
    auto c = api();
    auto id = json_str(create_image_ok(c, t.write.key, image_body(prompt)), "id");
    BOOST_REQUIRE(json_str(wait_terminal(c, t.read.key, id), "status") == "succeeded");
    return id;
  }
};

} // namespace

BOOST_FIXTURE_TEST_CASE(blob_bytes_follow_the_disk_through_a_restart_and_expiry, gauges_server) {
  auto t = create_team_with_keys();
  render(t, "kept for an hour");
  auto kept = blobs_on_disk(svcd.data_dir());
  BOOST_REQUIRE(kept.count >= 1);
  auto m = scrape();
  BOOST_TEST(sample(m, "svc_blob_bytes") == kept.bytes, "counted as written");
  BOOST_TEST(sample(m, "svc_blobs") == kept.count);

  // Later outputs live two seconds; the first job's keep the hour they were given.
  svcd.set_extra_args({"--webhook-allow-private", "--output-ttl", "2s"});
  svcd.restart();
  m = scrape();
  BOOST_TEST(sample(m, "svc_blob_bytes") == kept.bytes, "counted from the disk at start");
  BOOST_TEST(sample(m, "svc_blobs") == kept.count);

  render(t, "gone in two seconds");
  BOOST_TEST(blobs_on_disk(svcd.data_dir()).count > kept.count);
  BOOST_TEST(reads("svc_blobs", kept.count), "the expiry sweep's removals are counted: " << scrape());
  BOOST_TEST(sample(scrape(), "svc_blob_bytes") == kept.bytes);
  BOOST_TEST(blobs_on_disk(svcd.data_dir()).bytes == kept.bytes);
}

BOOST_FIXTURE_TEST_CASE(disabled_endpoints_are_counted_now_and_after_a_restart, gauges_server) {
  auto t = create_team_with_keys();
  auto c = api();
  auto url = "https://127.0.0.1:" + std::to_string(closed_local_port()) + "/hook";
  auto endpoint = json_str(create_endpoint_ok(c, t.full.key, url), "id");
  create_endpoint_ok(c, t.full.key, url); // stays enabled throughout
  BOOST_TEST(sample(scrape(), "svc_webhook_disabled_endpoints") == 0);

  ctl_ok({"endpoint", "disable", "--endpoint", endpoint});
  BOOST_TEST(reads("svc_webhook_disabled_endpoints", 1), scrape());

  svcd.restart();
  BOOST_TEST(reads("svc_webhook_disabled_endpoints", 1), "counted at load: " << scrape());
  auto lint = promtool_check(scrape());
  BOOST_TEST(lint.exit_code == 0, lint.output);

  ctl_ok({"endpoint", "enable", "--endpoint", endpoint});
  BOOST_TEST(reads("svc_webhook_disabled_endpoints", 0), scrape());
}

BOOST_AUTO_TEST_SUITE_END()
