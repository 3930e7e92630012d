#include "bench/load/webhook_scenario.hpp"

#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <sstream>

#include "bench/load/blocking_client.hpp"
#include "bench/load/delivery_checker.hpp"
#include "bench/load/format.hpp"
#include "bench/load/http_connection.hpp"
#include "bench/load/json_member.hpp"
#include "bench/load/process_cpu.hpp"
#include "bench/load/webhook_endpoints.hpp"
#include "bench/receiver/https_receiver.hpp"
#include "bench/receiver/test_ca.hpp"

namespace svc::bench {
namespace {

using wall = std::chrono::system_clock;

constexpr auto exchange_timeout = std::chrono::seconds{30};
// After a transport error a connection pauses this long (no connect storm on a dead server).
constexpr auto connection_error_pause = std::chrono::milliseconds{100};
// The receiver keeps every request; it is emptied this often so a run's memory stays flat.
constexpr auto receiver_trim_period = std::chrono::milliseconds{200};
// Prefill gives up after this many refused creates (limits not raised, credits out).
constexpr uint64_t prefill_failure_limit = 20;

double seconds_of(std::chrono::steady_clock::duration d) { return std::chrono::duration<double>(d).count(); }

// CPU so far of every thread of `pid`, by thread id (utime + stime from /proc).
std::map<int, thread_cpu> read_thread_cpu(int pid) {
  std::map<int, thread_cpu> out;
  const auto tick = static_cast<double>(sysconf(_SC_CLK_TCK));
  std::error_code ec;
  for (auto& entry : std::filesystem::directory_iterator("/proc/" + std::to_string(pid) + "/task", ec)) {
    std::ifstream in(entry.path() / "stat");
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto open = text.find('('), close = text.rfind(')');
    if (open == std::string::npos || close == std::string::npos || close + 2 > text.size())
      continue;
    // After "comm) ": state is field 3, utime field 14, stime field 15.
    std::istringstream rest(text.substr(close + 2));
    std::string field;
    double ticks = 0;
    for (int i = 0; i < 13 && rest >> field; ++i)
      if (i == 11 || i == 12)
        ticks += std::strtod(field.c_str(), nullptr);
    thread_cpu t;
    t.tid = std::atoi(entry.path().filename().c_str());
    t.name = text.substr(open + 1, close - open - 1);
    t.seconds = ticks / tick;
    out[t.tid] = t;
  }
  return out;
}

// The API side, on one io thread: fills each team's pool
// of queued images, then cancels them paced or closed-loop.
class event_source {
public:
  event_source(const webhook_options& o, delivery_checker& checker)
    : o_(o), checker_(checker), pools_(o.keys.size()), pace_(io_), end_(io_), trim_(io_) {
    for (auto& key : o.keys)
      create_requests_.push_back(create_image_request(o.server, key, o.image));
    for (std::size_t i = 0; i < o.connections; ++i)
      slots_.push_back({std::make_shared<http_connection>(io_, o.server.endpoint, exchange_timeout),
                        std::make_unique<net::steady_timer>(io_)});
  }

  // Creates `per_team` images for each team over every connection; false (with `error`) if svcd refuses.
  bool prefill(std::size_t per_team, std::string& error) {
    std::vector<std::size_t> owed(o_.keys.size(), per_team);
    uint64_t failures = 0;
    std::size_t next = 0;
    std::function<void(std::size_t)> fill = [&](std::size_t slot) {
      if (failures >= prefill_failure_limit)
        return;
      std::size_t team = 0, tried = 0;
      for (; tried < owed.size(); ++tried)
        if (owed[team = next++ % owed.size()] > 0)
          break;
      if (tried == owed.size())
        return;
      --owed[team];
      slots_[slot].connection->send(create_requests_[team], [&, slot, team](exchange& x) {
        auto id = on_created(x);
        if (id.empty()) {
          ++owed[team];
          if (++failures >= prefill_failure_limit)
            error = format("svcd refused %llu creates; the last answered %u: %s",
                           static_cast<unsigned long long>(failures), x.error ? 0U : x.response.result_int(),
                           x.error ? x.error.message().c_str() : x.response.body().substr(0, 300).c_str());
        } else {
          pools_[team].push_back(std::move(id));
        }
        fill(slot);
      });
    };
    for (std::size_t s = 0; s < slots_.size(); ++s)
      fill(s);
    io_.restart();
    io_.run();
    return error.empty();
  }

  // Runs warm-up and window from `start`; returns once the window closed and every exchange ended.
  void run(std::chrono::steady_clock::time_point start, std::function<void()> window_opened,
           std::function<void()> window_closed, std::function<void()> trim) {
    start_ = start;
    trim_fn_ = std::move(trim);
    if (o_.rate <= 0) // closed loop: every first receipt may make room for another event
      checker_.on_progress([this] { net::post(io_, [this] { pump(); }); });
    net::steady_timer opened(io_);
    opened.expires_at(start + o_.warmup);
    opened.async_wait([&](beast::error_code) {
      creates_at_open_ = creates_.of(201) + creates_.other_than(201);
      window_opened();
    });
    end_.expires_at(start + o_.warmup + o_.duration);
    end_.async_wait([this, &window_closed](beast::error_code) {
      stopping_ = true;
      pace_.cancel();
      trim_.cancel();
      window_closed();
    });
    trim_loop();
    pump();
    io_.restart();
    io_.run();
    checker_.on_progress(nullptr);
  }

  uint64_t events_made() const { return events_started_ - events_failed_; }
  const status_counts& cancels() const { return cancels_; }
  const status_counts& creates() const { return creates_; }
  uint64_t creates_in_window() const { return creates_.of(201) + creates_.other_than(201) - creates_at_open_; }

private:
  struct slot {
    std::shared_ptr<http_connection> connection;
    std::unique_ptr<net::steady_timer> pause;
    bool busy = false;
  };

  // The id of the image a create answer made; empty (and counted) when it made none.
  std::string on_created(exchange& x) {
    const auto status = x.error ? 0U : x.response.result_int();
    creates_.add(status);
    return status == 201 ? json_string_member(x.response.body(), "id").value_or("") : std::string{};
  }

  bool may_start(std::chrono::steady_clock::time_point now) const {
    if (o_.rate > 0) // paced: event k (from 0) is due at start + k / (rate / E); the slack absorbs rounding
      return static_cast<double>(events_started_) <= seconds_of(now - start_) * event_rate() + 1e-6;
    const auto made = events_made() * o_.endpoints_per_team, received = checker_.received();
    const auto owed = made > received ? made - received : 0;
    return owed + o_.endpoints_per_team <= o_.window;
  }

  double event_rate() const { return o_.rate / static_cast<double>(o_.endpoints_per_team); }

  void pump() {
    if (stopping_)
      return;
    const auto now = std::chrono::steady_clock::now();
    bool idle = false;
    for (std::size_t s = 0; s < slots_.size(); ++s) {
      if (slots_[s].busy)
        continue;
      if (!may_start(now)) {
        idle = true;
        break;
      }
      start_event(s);
    }
    if (o_.rate > 0 && idle && !pace_armed_) {
      pace_armed_ = true;
      const auto due = static_cast<double>(events_started_) / event_rate();
      pace_.expires_at(start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                  std::chrono::duration<double>(due)));
      pace_.async_wait([this](beast::error_code) {
        pace_armed_ = false;
        pump();
      });
    }
  }

  // The next team's next pooled image is cancelled (created first if the pool ran dry).
  void start_event(std::size_t s) {
    const auto team = next_team_++ % pools_.size();
    ++events_started_;
    slots_[s].busy = true;
    if (!pools_[team].empty()) {
      auto id = std::move(pools_[team].front());
      pools_[team].pop_front();
      return cancel(s, team, id);
    }
    slots_[s].connection->send(create_requests_[team], [this, s, team](exchange& x) {
      auto id = on_created(x);
      if (id.empty())
        return finish(s, x, false);
      cancel(s, team, id);
    });
  }

  void cancel(std::size_t s, std::size_t team, const std::string& id) {
    auto request = post_empty_request("/v1/images/" + id + "/cancel", o_.server, o_.keys[team]);
    slots_[s].connection->send(std::move(request), [this, s, team, id](exchange& x) {
      const auto status = x.error ? 0U : x.response.result_int();
      cancels_.add(status);
      if (status == 429) // the image is still queued: cancel it later
        pools_[team].push_front(id);
      finish(s, x, status == 200);
    });
  }

  // Frees slot `s` after an exchange; after an error or a 429 it rests first
  // (the error pause, or Retry-After), so limits left at their defaults are not hammered.
  void finish(std::size_t s, const exchange& x, bool made) {
    events_failed_ += made ? 0 : 1;
    const bool refused = !x.error && x.response.result_int() == 429;
    if (!x.error && !refused) {
      slots_[s].busy = false;
      return pump();
    }
    const auto retry_after = refused ? std::atoi(std::string(x.response[http::field::retry_after]).c_str()) : 0;
    slots_[s].pause->expires_after(refused ? std::chrono::milliseconds{1000 * std::max(1, retry_after)} : connection_error_pause);
    slots_[s].pause->async_wait([this, s](beast::error_code) {
      slots_[s].busy = false;
      pump();
    });
  }

  void trim_loop() {
    trim_.expires_after(receiver_trim_period);
    trim_.async_wait([this](beast::error_code ec) {
      if (ec || stopping_)
        return;
      trim_fn_();
      trim_loop();
    });
  }

  const webhook_options& o_;
  delivery_checker& checker_;
  net::io_context io_;
  std::vector<std::string> create_requests_; ///< by team
  std::vector<std::deque<std::string>> pools_; ///< by team: queued image ids
  std::vector<slot> slots_;
  net::steady_timer pace_, end_, trim_;
  std::function<void()> trim_fn_;
  std::chrono::steady_clock::time_point start_;
  bool stopping_ = false, pace_armed_ = false;
  std::size_t next_team_ = 0;
  uint64_t events_started_ = 0, events_failed_ = 0, creates_at_open_ = 0;
  status_counts cancels_, creates_;
};

// Images each team needs before the run: enough for the paced rate (or,
// closed loop, for 10,000 deliveries/s) over warm-up and window, plus 10%.
std::size_t pool_per_team(const webhook_options& o) {
  if (o.pool > 0)
    return o.pool;
  const auto per_s = o.rate > 0 ? o.rate : 10'000.0;
  const auto seconds = std::chrono::duration<double>(o.warmup + o.duration).count();
  const auto events = 1.1 * per_s * seconds / static_cast<double>(o.endpoints_per_team);
  return static_cast<std::size_t>(std::ceil(events / static_cast<double>(o.keys.size()))) + 1;
}

} // namespace

double webhook_result::deliveries_per_s() const {
  return seconds > 0 ? static_cast<double>(deliveries) / seconds : 0;
}

bool webhook_result::clean() const {
  return setup_error.empty() && deliveries > 0 && signature_failures == 0 && malformed == 0 && duplicates == 0
         && missing() == 0 && cancels.other_than(200) == 0 && creates.other_than(201) == 0;
}

void prepare_webhook_ca(const std::string& dir) { receiver::load_or_make_test_pki(dir); }

webhook_result run_webhook(const webhook_options& o) {
  webhook_result r;
  r.seconds = std::chrono::duration<double>(o.duration).count();
  delivery_checker checker(o.keys.size() * o.endpoints_per_team);
  receiver::receiver_options ro;
  ro.tls = receiver::load_or_make_test_pki(o.ca_dir).server;
  ro.threads = o.receiver_threads;
  receiver::https_receiver receiver(std::move(ro));
  receiver.set_handler([&checker](const receiver::received_request& req) { return checker.check(req); });
  event_source source(o, checker);

  blocking_client api(o.server);
  r.setup_error = register_endpoints(api, o.server, o.keys, o.endpoints_per_team, o.subscribe, receiver, checker);
  if (r.setup_error.empty())
    source.prefill(pool_per_team(o), r.setup_error);
  r.creates = source.creates();
  if (!r.setup_error.empty())
    return r;

  const auto start = std::chrono::steady_clock::now();
  const auto wall_open = wall::now() + o.warmup;
  checker.set_window(wall_open, wall_open + o.duration);
  double cpu_open = 0;
  std::map<int, thread_cpu> threads_open;
  const auto sample = [&o](std::map<int, thread_cpu>& threads) {
    if (o.svcd_pid > 0)
      threads = read_thread_cpu(o.svcd_pid);
    return process_cpu_seconds();
  };
  std::map<int, thread_cpu> threads_closed;
  source.run(
    start, [&] { cpu_open = sample(threads_open); },
    [&] {
      r.client_cpu_s = sample(threads_closed) - cpu_open;
      for (auto& [tid, t] : threads_closed) {
        auto before = threads_open.find(tid);
        auto used = t.seconds - (before == threads_open.end() ? 0 : before->second.seconds);
        r.svcd_cpu_s += used;
        r.svcd_threads.push_back({tid, t.name, used});
      }
    },
    [&receiver] { receiver.clear(); });
  std::sort(r.svcd_threads.begin(), r.svcd_threads.end(),
            [](const thread_cpu& a, const thread_cpu& b) { return a.seconds > b.seconds; });

  const auto closed = std::chrono::steady_clock::now();
  r.expected = source.events_made() * o.endpoints_per_team;
  checker.wait_received(r.expected, closed + o.drain);
  r.drain_seconds = seconds_of(std::chrono::steady_clock::now() - closed);
  // A duplicate would come from a retry, 5 s later at the earliest: the drain does not wait for one.
  auto seen = checker.counts();
  r.deliveries = seen.deliveries;
  r.latency = summarize(seen.latency);
  r.signature_failures = seen.signature_failures;
  r.malformed = seen.malformed;
  r.duplicates = seen.duplicates;
  r.received = seen.received;
  r.types = seen.types;
  r.cancels = source.cancels();
  r.creates = source.creates();
  r.creates_in_window = source.creates_in_window();
  r.receiver_connections = receiver.accepted_connections();
  receiver.clear();
  return r;
}

std::string webhook_report(const webhook_options& o, const webhook_result& r) {
  const auto teams = o.keys.size();
  if (!r.setup_error.empty())
    return "webhook: setup failed: " + r.setup_error + "\n";
  std::string types, threads, threads_json;
  for (auto& [type, n] : r.types)
    types += (types.empty() ? "" : " ") + type + "=" + std::to_string(n);
  for (auto& t : r.svcd_threads) {
    if (t.seconds < 0.005 * r.seconds) // under half a percent of a core: left out
      continue;
    threads += format("%s%d %s %.0f%%", threads.empty() ? "" : ", ", t.tid, t.name.c_str(),
                      100 * t.seconds / r.seconds);
    threads_json += format("%s{\"tid\":%d,\"name\":\"%s\",\"cpu_s\":%.2f}", threads_json.empty() ? "" : ",", t.tid,
                           t.name.c_str(), t.seconds);
  }
  const auto mode = o.rate > 0 ? format("paced at %.0f deliveries/s", o.rate)
                               : format("closed loop (at most %zu deliveries owed)", o.window);
  const auto u = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  return format("webhook: %zu teams x %zu endpoints (%s subscriptions), %s, %zu connections, %.1f s after %.1f s "
                "warm-up\n",
                teams, o.endpoints_per_team, o.subscribe.c_str(), mode.c_str(), o.connections, r.seconds,
                std::chrono::duration<double>(o.warmup).count())
         + format("  %.1f verified deliveries/s (%llu in the window)\n", r.deliveries_per_s(), u(r.deliveries))
         + "  event latency (receipt - created_at): " + to_text(r.latency) + "\n"
         + format("  signature failures %llu, malformed %llu, duplicates %llu, missing %llu of %llu owed (drained in "
                  "%.2f s)\n",
                  u(r.signature_failures), u(r.malformed), u(r.duplicates), u(r.missing()), u(r.expected),
                  r.drain_seconds)
         + format("  deliveries by type: %s; cancels: %s; creates: %s (%llu in the window)\n",
                  types.empty() ? "none" : types.c_str(), r.cancels.to_text().c_str(), r.creates.to_text().c_str(),
                  u(r.creates_in_window))
         + format("  receiver: %llu TLS connections from svcd; svc-bench CPU %.2f s (%.0f%% of one core)\n",
                  u(r.receiver_connections), r.client_cpu_s, 100 * r.client_cpu_s / r.seconds)
         + (o.svcd_pid > 0 ? format("  svcd CPU %.2f s (%.2f cores); by thread (id name share of a core): %s\n",
                                    r.svcd_cpu_s, r.svcd_cpu_s / r.seconds, threads.c_str())
                           : std::string{})
         + format("SUMMARY {\"scenario\":\"webhook\",\"teams\":%zu,\"endpoints_per_team\":%zu,\"subscribe\":\"%s\","
                  "\"rate\":%.1f,\"window\":%zu,\"connections\":%zu,\"seconds\":%.3f,\"deliveries\":%llu,"
                  "\"deliveries_per_s\":%.1f,%s,\"signature_failures\":%llu,\"malformed\":%llu,\"duplicates\":%llu,"
                  "\"expected\":%llu,\"received\":%llu,\"missing\":%llu,\"drain_s\":%.3f,\"cancels\":%s,"
                  "\"creates\":%s,\"errors\":%llu,\"creates_in_window\":%llu,\"receiver_connections\":%llu,"
                  "\"client_cpu_s\":%.3f,\"svcd_cpu_s\":%.3f,\"svcd_threads\":[%s]}\n",
                  teams, o.endpoints_per_team, o.subscribe.c_str(), o.rate, o.window, o.connections, r.seconds,
                  u(r.deliveries), r.deliveries_per_s(), to_json_members(r.latency).c_str(), u(r.signature_failures),
                  u(r.malformed), u(r.duplicates), u(r.expected), u(r.received), u(r.missing()), r.drain_seconds,
                  r.cancels.to_json().c_str(), r.creates.to_json().c_str(), u(r.cancels.errors + r.creates.errors),
                  u(r.creates_in_window), u(r.receiver_connections), r.client_cpu_s, r.svcd_cpu_s,
                  threads_json.c_str());
}

} // namespace svc::bench
