// Faults of neighbours, the remote back end (issue 12, item 8): an A1111
// server that hangs (renders, progress polls and interrupts alike), one that
// answers garbage, and one that answers a PNG of 112 MiB. While each
// misbehaves, creates and cancels answer at once, healthy webhook endpoints
// of two teams get their deliveries within the delivery bound and API reads
// keep the read bound; each job fails with its failure code, its hold comes
// back and `image.failed` reaches the team's endpoint. The huge answer is
// read no further than the asked images can be, so svcd's memory stays put.
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include <boost/json/value.hpp>

#include "a1111_server.hpp"
#include "support/image_jobs.hpp"
#include "support/json_util.hpp"
#include "support/neighbour_fixture.hpp"
#include "support/peak_memory.hpp"
#include "support/wait.hpp"
#include "tests/support/fixture_with.hpp"

BOOST_AUTO_TEST_SUITE(e2e_neighbour_backend)

using namespace svc::e2e;
using namespace std::chrono_literals;
using svc::test::a1111_mode;
using svc::test::a1111_server;
using steady = std::chrono::steady_clock;
using ms = std::chrono::milliseconds;

namespace {

// Started before svcd, which needs its URL.
struct with_a1111 {
  explicit with_a1111(a1111_mode mode) : fake(mode) {}
  a1111_server fake;
};

// The job deadline is the neighbour timeout; a failed attempt is not retried,
// so each job makes one render request; two renders may run at once.
std::vector<std::string> backend_args(const std::string& url) {
  return {"--provider",   "remote", "--remote-url", url, "--remote-timeout", neighbour_timeout_option,
          "--remote-connect-timeout", "1s", "--remote-retries", "0", "--remote-poll", "100ms", "--workers", "2"};
}

// Team a's jobs, one after another from a thread of its own, each waited for
// until terminal, for at least `span`: a back end that fails them quickly
// then misbehaves all through the healthy checks.
class jobs_in_background {
public:
  jobs_in_background(const std::string& api_url, const team_keys& team, std::chrono::milliseconds span)
      : thread_([this, api_url, team, span] {
          http_client c(api_url);
          auto until = steady::now() + span;
          do {
            try {
              auto started = steady::now();
              auto id = json_str(create_image_ok(c, team.write.key, image_body()), "id");
              slowest_create_ = std::max(slowest_create_, std::chrono::duration_cast<ms>(steady::now() - started));
              jobs_.push_back(wait_terminal(c, team.read.key, id, neighbour_timeout + 10s));
            } catch (const std::exception& e) {
              jobs_.emplace_back(std::string("no job: ") + e.what());
            }
          } while (steady::now() < until);
          done_ = true;
        }) {}
  ~jobs_in_background() { join(); }

  bool done() const { return done_; }
  /// Waits for the last job; every record as it ended.
  const std::vector<boost::json::value>& join() {
    if (thread_.joinable())
      thread_.join();
    return jobs_;
  }
  /// The slowest create (read after `join`).
  ms slowest_create() const { return slowest_create_; }

private:
  std::vector<boost::json::value> jobs_;
  ms slowest_create_{0};
  std::atomic<bool> done_{false};
  std::thread thread_;
};

struct backend_neighbour : with_a1111, neighbour_fixture {
  explicit backend_neighbour(a1111_mode mode) : with_a1111(mode), neighbour_fixture(backend_args(fake.url())) {
    raise_bucket(*this, a.keys.id, "images_post");
  }

  // A job of team a, created within the read bound.
  std::string create_job() {
    auto started = steady::now();
    auto id = json_str(create_image_ok(c, a.keys.write.key, image_body()), "id");
    auto took = std::chrono::duration_cast<ms>(steady::now() - started);
    BOOST_TEST(took.count() < read_bound.count(), "a create took " << took.count() << " ms");
    return id;
  }

  bool terminal(const std::string& id) { return is_terminal_status(json_str(get_image(c, a.keys.read.key, id), "status")); }

  // The job failed with `code`, gave its hold back and told team a.
  void check_failed(const boost::json::value& job, const std::string& code) {
    BOOST_TEST(json_str(job, "status") == "failed", job);
    BOOST_TEST(json_str(job, "failure.code") == code, job);
    BOOST_TEST(json_str(job, "cost.status") == "refunded", job);
    BOOST_TEST(json_size(job, "output_urls") == 0);
    auto id = json_str(job, "id");
    auto event = wait_for_receipt(
      *hooks, [&](const receipt& r) { return r.type == "image.failed" && json_str(r.envelope, "data.id") == id; },
      delivery_bound);
    BOOST_TEST(event.has_value(), "image.failed of " << id << " reached team a's endpoint");
  }

  // Healthy deliveries go on while job `id` runs on the bad back end; then
  // it has failed with `code`.
  boost::json::value fails_while_others_go_on(const std::string& id, const std::string& code) {
    check_healthy_deliveries([&] { return !terminal(id); });
    auto job = wait_terminal(c, a.keys.read.key, id, neighbour_timeout + 10s);
    check_failed(job, code);
    return job;
  }

  // Healthy deliveries go on while jobs run on the bad back end for a
  // second; each has failed with `code`. Returns them.
  std::vector<boost::json::value> jobs_fail_while_others_go_on(const std::string& code) {
    jobs_in_background jobs(svcd.api_url(), a.keys, 1s);
    check_healthy_deliveries([&] { return !jobs.done(); });
    auto records = jobs.join();
    BOOST_TEST_MESSAGE(records.size() << " jobs on the bad back end; slowest create " << jobs.slowest_create().count()
                                      << " ms");
    BOOST_TEST(jobs.slowest_create().count() < read_bound.count());
    for (auto& job : records)
      check_failed(job, code);
    return records;
  }

  // Every hold came back.
  void check_balance_whole() {
    auto b = get_balance(c, a.keys.read.key);
    BOOST_TEST(b.available == 1000);
    BOOST_TEST(b.held == 0);
  }
};

using hanging_back_end = svc::test::fixture_with<backend_neighbour, a1111_mode::hang>;
using garbage_back_end = svc::test::fixture_with<backend_neighbour, a1111_mode::not_http>;
using huge_png_back_end = svc::test::fixture_with<backend_neighbour, a1111_mode::huge_png>;

} // namespace

BOOST_FIXTURE_TEST_CASE(a_back_end_that_hangs_fails_its_job_with_provider_timeout, hanging_back_end) {
  auto started = steady::now();
  auto id = create_job();
  auto reads = probe_reads({"/v1/images/" + id});
  BOOST_REQUIRE(wait_until([&] { return fake.count("/sdapi/v1/txt2img") == 1; }, 5s));

  // A second job hangs too, and its cancel does not wait for the back end.
  auto other = create_job();
  BOOST_REQUIRE(wait_until([&] { return fake.count("/sdapi/v1/txt2img") == 2; }, 5s));
  auto cancel_started = steady::now();
  auto cancelled = c.request("POST", "/v1/images/" + other + "/cancel", with_key(a.keys.write.key));
  auto cancel_took = std::chrono::duration_cast<ms>(steady::now() - cancel_started);
  BOOST_TEST(cancelled.status == 200, cancelled.summary());
  BOOST_TEST(json_str(cancelled.json(), "cost.status") == "refunded", cancelled.summary());
  BOOST_TEST_MESSAGE("cancel of a job on the hanging back end: " << cancel_took.count() << " ms");
  BOOST_TEST(cancel_took.count() < read_bound.count());

  auto job = fails_while_others_go_on(id, "provider_timeout");
  auto took = std::chrono::duration_cast<ms>(steady::now() - started);
  BOOST_TEST_MESSAGE("the hanging job failed after " << took.count() << " ms");
  BOOST_TEST(took >= neighbour_timeout);
  BOOST_TEST(fake.count("/sdapi/v1/progress") >= 1u, "progress was polled (and hung) meanwhile");
  BOOST_TEST(fake.interrupts() >= 1u, "the GPU was told to stop");
  check_balance_whole();
  check_reads(reads->stop());
}

BOOST_FIXTURE_TEST_CASE(a_back_end_that_answers_garbage_fails_its_jobs_with_provider_error, garbage_back_end) {
  auto reads = probe_reads();
  struct garbage {
    a1111_mode mode;
    std::string message;
  };
  std::size_t jobs = 0;
  for (auto& g : std::vector<garbage>{{a1111_mode::not_http, "unreadable"},
                                      {a1111_mode::not_json, "something other than a JSON object"}}) {
    fake.set_mode(g.mode);
    for (auto& job : jobs_fail_while_others_go_on("provider_error")) {
      BOOST_TEST(json_str(job, "failure.message").find(g.message) != std::string::npos, job);
      ++jobs;
    }
  }
  BOOST_TEST(fake.count("/sdapi/v1/txt2img") == jobs, "garbage is not asked for again");
  check_balance_whole();
  check_reads(reads->stop());
}

BOOST_FIXTURE_TEST_CASE(a_back_end_that_answers_a_huge_png_is_read_no_further_than_the_asked_image, huge_png_back_end) {
  auto reads = probe_reads();
  BOOST_REQUIRE(reset_peak_rss(svcd.pid()));
  auto before = peak_rss_kib(svcd.pid());
  auto jobs = jobs_fail_while_others_go_on("provider_error");
  auto grew = peak_rss_kib(svcd.pid()) - before;
  auto taken = fake.huge_bytes_taken();
  BOOST_TEST_MESSAGE("of " << jobs.size() << " answers of " << (svc::test::a1111_huge_padding >> 20)
                           << " MiB svcd took " << taken << " bytes; its peak memory grew by " << grew << " KiB");
  for (auto& job : jobs)
    BOOST_TEST(json_str(job, "failure.message").find("larger than the asked images can be") != std::string::npos, job);
  BOOST_TEST(fake.huge_answers_finished() == 0u);
  BOOST_TEST(taken < jobs.size() * (16u << 20), "svcd took " << taken << " bytes of the answers");
  if (peak_rss_measures_held_memory())
    BOOST_TEST(grew < 64 * 1024, "svcd's peak memory grew by " << grew << " KiB");
  check_balance_whole();
  check_reads(reads->stop());
}

BOOST_AUTO_TEST_SUITE_END()
