#include "bench/load/create_scenario.hpp"

#include <boost/asio/steady_timer.hpp>

#include <sys/resource.h>

#include <memory>
#include <thread>

#include "bench/load/format.hpp"
#include "bench/load/http_connection.hpp"
#include "bench/load/rate_pacer.hpp"

namespace svc::bench {
namespace {

using std::chrono::nanoseconds;

// After a transport error a connection pauses this long, so a dead server
// is not met with a connect storm.
constexpr auto error_pause = std::chrono::milliseconds{100};

// A create answers well within svcd's request deadline (10 s by default).
constexpr auto exchange_timeout = std::chrono::seconds{30};

// One io thread's share of the connections, each looping create -> answer -> create.
class create_worker {
public:
  // Takes connections first, first + stride, ... of `connections`.
  create_worker(const target& server, const std::vector<std::string>& requests, std::size_t connections,
                std::size_t first, std::size_t stride)
    : requests_(requests), pacers_(requests.size()) {
    for (auto i = first; i < connections; i += stride)
      loops_.push_back({std::make_shared<http_connection>(io_, server.endpoint, exchange_timeout),
                        std::make_unique<net::steady_timer>(io_), i % requests.size()});
    // Preallocated so growing the vector never stalls the io thread mid-run.
    latencies_.reserve(1 << 20);
  }

  void run(steady::time_point deadline) {
    deadline_ = deadline;
    for (std::size_t slot = 0; slot < loops_.size(); ++slot)
      send_next(slot);
    io_.run();
  }

  const status_counts& counts() const { return counts_; }
  std::vector<nanoseconds>& latencies() { return latencies_; }

private:
  struct loop {
    std::shared_ptr<http_connection> connection;
    std::unique_ptr<net::steady_timer> timer; ///< pauses after an error or a 429
    std::size_t key;
  };

  void send_next(std::size_t slot) {
    auto& l = loops_[slot];
    // With the raised limits the run is meant for this never waits; with the
    // defaults it keeps the harness from hammering svcd with refused creates.
    const auto now = steady::now();
    const auto not_before = pacers_[l.key].not_before();
    if (not_before > now)
      return pause_until(slot, not_before);
    pacers_[l.key].sent(now);
    l.connection->send(requests_[l.key], [this, slot](exchange& x) { on_answer(slot, x); });
  }

  // A pause past the window ends the loop rather than keep the run going.
  void pause_until(std::size_t slot, steady::time_point when) {
    if (when > deadline_)
      return loops_[slot].connection->close();
    auto& timer = *loops_[slot].timer;
    timer.expires_at(when);
    timer.async_wait([this, slot](beast::error_code) { send_next(slot); });
  }

  void on_answer(std::size_t slot, exchange& x) {
    if (x.answered > deadline_) {
      loops_[slot].connection->close();
      return;
    }
    const auto status = x.error ? 0U : x.response.result_int();
    counts_.add(status);
    if (status == 201)
      latencies_.push_back(std::chrono::duration_cast<nanoseconds>(x.answered - x.sent));
    if (x.error)
      return pause_until(slot, x.answered + error_pause);
    pacers_[loops_[slot].key].observe(x);
    send_next(slot);
  }

  const std::vector<std::string>& requests_;
  std::vector<rate_pacer> pacers_; ///< per key: this thread's view of the key's images_post bucket
  net::io_context io_;
  std::vector<loop> loops_;
  steady::time_point deadline_;
  status_counts counts_;
  std::vector<nanoseconds> latencies_;
};

// User + system CPU of this process (every thread) so far.
double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto s = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

} // namespace

double create_result::creates_per_s() const {
  return seconds > 0 ? static_cast<double>(counts.of(201)) / seconds : 0;
}

create_result run_create(const create_options& o) {
  std::vector<std::string> requests;
  for (auto& key : o.keys)
    requests.push_back(create_image_request(o.server, key, o.image));
  std::vector<std::unique_ptr<create_worker>> workers;
  for (std::size_t t = 0; t < o.threads; ++t)
    workers.push_back(std::make_unique<create_worker>(o.server, requests, o.connections, t, o.threads));

  const auto cpu_start = process_cpu_seconds();
  const auto deadline = steady::now() + o.duration;
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers.size(); ++t)
    threads.emplace_back([&w = *workers[t], deadline] { w.run(deadline); });
  workers.front()->run(deadline);
  for (auto& th : threads)
    th.join();

  create_result r;
  r.client_cpu_s = process_cpu_seconds() - cpu_start;
  std::vector<nanoseconds> all;
  for (auto& w : workers) {
    r.counts.merge(w->counts());
    all.insert(all.end(), w->latencies().begin(), w->latencies().end());
  }
  r.created = summarize(all);
  r.seconds = std::chrono::duration<double>(o.duration).count();
  return r;
}

std::string create_report(const create_options& o, const create_result& r) {
  const auto created = static_cast<unsigned long long>(r.counts.of(201));
  return format("create: %zu connections over %zu keys, %zu io thread%s, %.1f s, %dx%d\n", o.connections,
                o.keys.size(), o.threads, o.threads == 1 ? "" : "s", r.seconds, o.image.width, o.image.height)
         + format("  %.1f creates/s (%llu x 201); answers: %s\n", r.creates_per_s(), created,
                  r.counts.to_text().c_str())
         + "  latency of 201s: " + to_text(r.created) + "\n"
         + format("  svc-bench CPU: %.2f s (%.0f%% of one core)\n", r.client_cpu_s,
                  r.seconds > 0 ? 100 * r.client_cpu_s / r.seconds : 0)
         + format("SUMMARY {\"scenario\":\"create\",\"connections\":%zu,\"keys\":%zu,\"threads\":%zu,"
                  "\"seconds\":%.3f,\"creates_per_s\":%.1f,\"created\":%llu,\"statuses\":%s,\"errors\":%llu,"
                  "\"client_cpu_s\":%.3f,%s}\n",
                  o.connections, o.keys.size(), o.threads, r.seconds, r.creates_per_s(), created,
                  r.counts.to_json().c_str(), static_cast<unsigned long long>(r.counts.errors), r.client_cpu_s,
                  to_json_members(r.created).c_str());
}

} // namespace svc::bench
