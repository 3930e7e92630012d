#include "bench/load/create_poll_scenario.hpp"

#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <memory>

#include "bench/load/format.hpp"
#include "bench/load/http_connection.hpp"
#include "bench/load/json_member.hpp"
#include "bench/load/rate_pacer.hpp"

namespace svc::bench {
namespace {

using std::chrono::nanoseconds;

// After a transport error or a 5xx a request waits this long before it is
// tried again, so a failing server is not hammered.
constexpr auto poll_error_pause = std::chrono::seconds{1};

// svcd answers within its request deadline (10 s by default), plus any Prefer: wait.
constexpr auto answer_margin = std::chrono::seconds{30};

struct pending_job {
  std::string id;
  steady::time_point created; ///< when its create was sent
  steady::time_point due;     ///< its next GET goes no earlier
};

struct poller {
  std::shared_ptr<http_connection> connection;
  std::unique_ptr<net::steady_timer> timer;
  bool idle = true; ///< waiting for a job to be created, not for a time
};

// One key's team. Jobs wait in `pending` in order of `due`: a push_back is
// due at "answer time + re-poll delay", so it is never due before the jobs
// already there, and a push_front puts back a job that was at the front.
struct team {
  std::string key;
  std::string create_request;
  std::shared_ptr<http_connection> creator;
  std::unique_ptr<net::steady_timer> create_timer;
  rate_pacer create_pacer;
  rate_pacer read_pacer;
  std::size_t created = 0;
  bool creating = true;
  std::deque<pending_job> pending;
  std::vector<poller> pollers;
};

class create_poll_run {
public:
  explicit create_poll_run(const create_poll_options& o) : o_(o), deadline_timer_(io_) {
    const auto timeout = std::chrono::duration_cast<steady::duration>(o.wait + answer_margin);
    for (auto& key : o.keys) {
      auto& t = teams_.emplace_back();
      t.key = key;
      t.create_request = create_image_request(o.server, key, o.image);
      t.creator = std::make_shared<http_connection>(io_, o.server.endpoint, timeout);
      t.create_timer = std::make_unique<net::steady_timer>(io_);
      for (std::size_t p = 0; p < o.poll_connections; ++p)
        t.pollers.push_back({std::make_shared<http_connection>(io_, o.server.endpoint, timeout),
                             std::make_unique<net::steady_timer>(io_)});
    }
  }

  create_poll_result run() {
    r_.wanted = teams_.size() * o_.per_team;
    start_ = steady::now();
    last_created_ = start_;
    deadline_timer_.expires_after(o_.timeout);
    deadline_timer_.async_wait([this](beast::error_code ec) {
      if (!ec)
        finish();
    });
    for (auto& t : teams_)
      create_next(t);
    io_.run();
    return result();
  }

private:
  steady::duration repoll_delay() const {
    // With Prefer: wait the server holds the GET until the job changes, so ask again at once.
    return o_.wait.count() > 0 ? steady::duration::zero() : steady::duration{o_.poll_interval};
  }

  void create_next(team& t) {
    if (t.created == o_.per_team) {
      t.creating = false;
      return finish_if_done();
    }
    if (wait_until(*t.create_timer, t.create_pacer.not_before(), [this, &t] { create_next(t); }))
      return;
    t.create_pacer.sent(steady::now());
    t.creator->send(t.create_request, [this, &t](exchange& x) { on_created(t, x); });
  }

  void on_created(team& t, exchange& x) {
    const auto status = x.error ? 0U : x.response.result_int();
    r_.creates.add(status);
    t.create_pacer.observe(x);
    if (status == 201) {
      if (auto id = json_string_member(x.response.body(), "id")) {
        ++t.created;
        ++r_.created;
        last_created_ = x.answered;
        t.pending.push_back({std::move(*id), x.sent, x.answered + repoll_delay()});
        wake_poller(t);
      }
    } else if (status == 0 || status >= 500) {
      return pause_then(*t.create_timer, [this, &t] { create_next(t); });
    } else if (status != 429) {
      // 402 and the like: this team cannot create more, whatever the pace.
      ++r_.short_teams;
      t.creating = false;
      return finish_if_done();
    }
    create_next(t);
  }

  void wake_poller(team& t) {
    for (std::size_t p = 0; p < t.pollers.size(); ++p)
      if (t.pollers[p].idle) {
        t.pollers[p].idle = false;
        return poll_next(t, p);
      }
  }

  void poll_next(team& t, std::size_t p) {
    auto& pl = t.pollers[p];
    if (t.pending.empty()) {
      pl.idle = true;
      return finish_if_done();
    }
    const auto ready = std::max(t.pending.front().due, t.read_pacer.not_before());
    if (wait_until(*pl.timer, ready, [this, &t, p] { poll_next(t, p); }))
      return;
    auto j = std::move(t.pending.front());
    t.pending.pop_front();
    const auto request = get_image_request(o_.server, t.key, j.id, static_cast<long>(o_.wait.count()));
    t.read_pacer.sent(steady::now());
    pl.connection->send(request, [this, &t, p, j = std::move(j)](exchange& x) mutable { on_polled(t, p, j, x); });
  }

  void on_polled(team& t, std::size_t p, pending_job& j, exchange& x) {
    const auto status = x.error ? 0U : x.response.result_int();
    r_.polls.add(status);
    t.read_pacer.observe(x);
    if (status == 200) {
      const auto job_status = json_string_member(x.response.body(), "status").value_or("");
      if (is_terminal_status(job_status)) {
        ++r_.terminal[job_status];
        completions_.record(std::chrono::duration_cast<nanoseconds>(x.answered - j.created));
      } else {
        j.due = x.answered + repoll_delay();
        t.pending.push_back(std::move(j));
      }
    } else if (status == 429) {
      // Still the most due job; the pacer holds it back until the bucket refills.
      t.pending.push_front(std::move(j));
    } else if (status == 0 || status >= 500) {
      // The connection pauses, not the job: it keeps its place in the order.
      t.pending.push_front(std::move(j));
      return pause_then(*t.pollers[p].timer, [this, &t, p] { poll_next(t, p); });
    }
    // Any other answer (404...) will not change by asking again: the job stays unfinished.
    poll_next(t, p);
  }

  // Waits on `timer` until `when` and then calls `then`; false (and no wait) when `when` has passed.
  template <class F> bool wait_until(net::steady_timer& timer, steady::time_point when, F then) {
    if (when <= steady::now())
      return false;
    timer.expires_at(when);
    timer.async_wait([then](beast::error_code ec) {
      if (!ec)
        then();
    });
    return true;
  }

  template <class F> void pause_then(net::steady_timer& timer, F then) {
    wait_until(timer, steady::now() + poll_error_pause, then);
  }

  // Done when no team creates any more and every poller is idle with nothing pending.
  void finish_if_done() {
    for (auto& t : teams_) {
      if (t.creating || !t.pending.empty())
        return;
      for (auto& pl : t.pollers)
        if (!pl.idle)
          return;
    }
    finish();
  }

  void finish() {
    end_ = steady::now();
    io_.stop();
  }

  create_poll_result result() {
    r_.completion = summarize(completions_);
    uint64_t terminal = 0;
    for (auto& [status, n] : r_.terminal)
      terminal += n;
    r_.unfinished = r_.created - terminal;
    r_.create_seconds = std::chrono::duration<double>(last_created_ - start_).count();
    r_.wall_seconds = std::chrono::duration<double>(end_ - start_).count();
    return r_;
  }

  const create_poll_options& o_;
  net::io_context io_;
  net::steady_timer deadline_timer_;
  std::deque<team> teams_; // a deque: handlers hold references to its elements
  create_poll_result r_;
  latency_histogram completions_;
  steady::time_point start_, end_, last_created_;
};

std::string terminal_text(const std::map<std::string, uint64_t>& terminal) {
  std::string out;
  for (auto& [status, n] : terminal)
    out += (out.empty() ? "" : " ") + status + "=" + std::to_string(n);
  return out.empty() ? "none" : out;
}

std::string terminal_json(const std::map<std::string, uint64_t>& terminal) {
  std::string out = "{";
  for (auto& [status, n] : terminal)
    out += (out.size() > 1 ? ",\"" : "\"") + status + "\":" + std::to_string(n);
  return out + "}";
}

} // namespace

create_poll_result run_create_poll(const create_poll_options& o) { return create_poll_run(o).run(); }

std::string create_poll_report(const create_poll_options& o, const create_poll_result& r) {
  const auto polling = o.wait.count() > 0 ? format("Prefer: wait=%lld", static_cast<long long>(o.wait.count()))
                                          : format("every %lld ms", static_cast<long long>(o.poll_interval.count()));
  const auto n = [](uint64_t v) { return static_cast<unsigned long long>(v); };
  return format("create-poll: %zu teams x %zu images, %dx%d, GETs %s over %zu connections per team\n",
                o.keys.size(), o.per_team, o.image.width, o.image.height, polling.c_str(), o.poll_connections)
         + format("  creates: %llu of %llu in %.1f s; answers: %s\n", n(r.created), n(r.wanted), r.create_seconds,
                  r.creates.to_text().c_str())
         + format("  polls: answers: %s\n", r.polls.to_text().c_str())
         + format("  terminal: %s; unfinished %llu; teams short of %zu: %llu\n", terminal_text(r.terminal).c_str(),
                  n(r.unfinished), o.per_team, n(r.short_teams))
         + "  create -> terminal: " + to_text(r.completion) + "\n"
         + format("  wall time: %.1f s\n", r.wall_seconds)
         + format("SUMMARY {\"scenario\":\"create-poll\",\"teams\":%zu,\"per_team\":%zu,\"created\":%llu,"
                  "\"create_statuses\":%s,\"create_errors\":%llu,\"poll_statuses\":%s,\"poll_errors\":%llu,"
                  "\"terminal\":%s,\"unfinished\":%llu,\"create_seconds\":%.3f,\"wall_seconds\":%.3f,"
                  "\"completion\":{%s}}\n",
                  o.keys.size(), o.per_team, n(r.created), r.creates.to_json().c_str(), n(r.creates.errors),
                  r.polls.to_json().c_str(), n(r.polls.errors), terminal_json(r.terminal).c_str(), n(r.unfinished),
                  r.create_seconds, r.wall_seconds, to_json_members(r.completion).c_str());
}

} // namespace svc::bench
