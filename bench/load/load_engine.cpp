#include "bench/load/load_engine.hpp"

#include <boost/asio/steady_timer.hpp>

#include <algorithm>
#include <cmath>
#include <thread>

#include "bench/load/process_cpu.hpp"

namespace svc::bench {
namespace {

using std::chrono::nanoseconds;

// Closed loop: after a transport error a connection pauses this long, so a
// dead server is not met with a connect storm. (Open loop keeps its pace.)
constexpr auto closed_loop_error_pause = std::chrono::milliseconds{100};

// svcd answers within its request deadline (10 s by default).
constexpr auto exchange_timeout = std::chrono::seconds{30};

// One io thread: its share of the connections (first = thread, stride = threads)
// and, open loop, of the arrivals (its j-th request is the run's request
// j * threads + thread, due at start + that / rate).
class load_worker {
public:
  load_worker(const load_options& o, std::unique_ptr<load_source> source, std::size_t thread,
              steady::time_point start)
    : o_(o), source_(std::move(source)), thread_(thread), start_(start), end_at_(start + o.duration),
      kinds_(o.kinds), series_(start), pace_(io_), end_(io_), drain_(io_) {
    for (auto i = thread; i < o.connections; i += o.threads) {
      idle_.push_back(slots_.size());
      slots_.push_back({i, std::make_shared<http_connection>(io_, o.server.endpoint, exchange_timeout),
                        std::make_unique<net::steady_timer>(io_)});
    }
    if (o.rate > 0) {
      const auto arrivals = std::chrono::duration<double>(o.duration).count() * o.rate;
      const auto t = static_cast<double>(thread);
      in_window_ = arrivals > t ? static_cast<uint64_t>(std::ceil((arrivals - t) / static_cast<double>(o.threads))) : 0;
    }
  }

  void run() {
    if (o_.rate > 0) {
      end_.expires_at(end_at_);
      end_.async_wait([this](beast::error_code) { close_window(); });
      dispatch();
    } else {
      idle_.clear();
      for (std::size_t s = 0; s < slots_.size(); ++s)
        send_closed(s);
    }
    io_.run();
  }

  std::vector<kind_result>& kinds() { return kinds_; }
  const latency_histogram& latency() const { return latency_; }
  const time_series_recorder& series() const { return series_; }
  uint64_t unsent() const { return unsent_; }
  uint64_t max_backlog() const { return max_backlog_; }
  uint64_t unfinished() const { return unfinished_; }

private:
  struct slot {
    std::size_t index; ///< the connection's number over all threads
    std::shared_ptr<http_connection> connection;
    std::unique_ptr<net::steady_timer> timer; ///< closed loop: pauses after an error or for a pacer
    planned_request plan{};                   ///< what is in flight
    steady::time_point from{};                ///< latency runs from here: the send (closed) or the due time (open)
  };

  void start(std::size_t s, planned_request p, steady::time_point from) {
    auto& sl = slots_[s];
    sl.plan = std::move(p);
    sl.from = from;
    ++busy_;
    sl.connection->send(std::move(sl.plan.request), [this, s](exchange& x) { on_answer(s, x); });
  }

  void on_answer(std::size_t s, exchange& x) {
    --busy_;
    auto& sl = slots_[s];
    if (o_.rate <= 0) {
      if (x.answered > end_at_) // the window has closed: this loop ends
        return sl.connection->close();
      account(sl, x, x.sent);
      if (x.error)
        return pause_closed(s, x.answered + closed_loop_error_pause);
      return send_closed(s);
    }
    if (drained_) { // closed by the drain's end
      ++unfinished_;
      return;
    }
    account(sl, x, sl.from);
    idle_.push_back(s);
    dispatch();
    if (window_closed_ && busy_ == 0 && next_ == in_window_) // all that fell due was sent and answered
      drain_.cancel();
  }

  void account(const slot& sl, const exchange& x, steady::time_point from) {
    const bool ok = source_->judge(sl.plan, x);
    auto& k = kinds_[sl.plan.kind];
    k.counts.add(x.error ? 0U : x.response.result_int());
    const auto latency = std::chrono::duration_cast<nanoseconds>(x.answered - from);
    if (ok) {
      ++k.ok;
      k.latency.record(latency);
      latency_.record(latency);
    }
    series_.record(x.answered, ok, latency);
  }

  // Closed loop: the slot's next request, or a pause the source asked for.
  void send_closed(std::size_t s) {
    const auto now = steady::now();
    auto p = source_->next(slots_[s].index, now);
    if (p.not_before > now)
      return pause_closed(s, p.not_before);
    start(s, std::move(p), now);
  }

  // A pause past the window ends the loop rather than keep the run going.
  void pause_closed(std::size_t s, steady::time_point when) {
    if (when > end_at_)
      return slots_[s].connection->close();
    slots_[s].timer->expires_at(when);
    slots_[s].timer->async_wait([this, s](beast::error_code) { send_closed(s); });
  }

  steady::time_point due_at(uint64_t j) const {
    const auto n = static_cast<double>(j * o_.threads + thread_);
    return start_ + std::chrono::duration_cast<steady::duration>(std::chrono::duration<double>(n / o_.rate));
  }

  // Open loop: requests of this thread due by `now` (within the window).
  uint64_t due_by(steady::time_point now) const {
    const auto arrivals = std::chrono::duration<double>(now - start_).count() * o_.rate;
    const auto t = static_cast<double>(thread_);
    if (arrivals < t)
      return 0;
    const auto j = static_cast<uint64_t>(std::floor((arrivals - t) / static_cast<double>(o_.threads)));
    return std::min(in_window_, j + 1);
  }

  // Open loop: every due request an idle connection can take goes; if a
  // connection is left idle, wake when the next one is due.
  void dispatch() {
    const auto now = steady::now();
    while (!idle_.empty() && next_ < in_window_ && due_at(next_) <= now) {
      const auto s = idle_.back();
      idle_.pop_back();
      const auto due = due_at(next_++);
      start(s, source_->next(slots_[s].index, now), due);
    }
    const auto due = due_by(now);
    max_backlog_ = std::max(max_backlog_, due > next_ ? due - next_ : 0);
    if (idle_.empty() || next_ >= in_window_ || pace_armed_)
      return;
    pace_armed_ = true;
    pace_.expires_at(due_at(next_));
    pace_.async_wait([this](beast::error_code) {
      pace_armed_ = false;
      if (!window_closed_)
        dispatch();
    });
  }

  // Nothing falls due after the window, but what fell due inside it and still
  // waits for a connection goes on through the drain; what is left when the
  // drain ends was never sent.
  void close_window() {
    window_closed_ = true;
    pace_.cancel();
    dispatch(); // a thread that woke late sends what fell due meanwhile
    if (busy_ == 0 && next_ == in_window_)
      return;
    drain_.expires_at(end_at_ + o_.drain);
    drain_.async_wait([this](beast::error_code ec) {
      if (ec) // everything came
        return;
      drained_ = true;
      unsent_ = in_window_ - next_;
      for (auto& sl : slots_)
        sl.connection->close();
    });
  }

  const load_options& o_;
  std::unique_ptr<load_source> source_;
  std::size_t thread_;
  steady::time_point start_, end_at_;
  net::io_context io_;
  std::vector<slot> slots_;
  std::vector<std::size_t> idle_; ///< open loop: slots free to send
  std::size_t busy_ = 0;
  std::vector<kind_result> kinds_;
  latency_histogram latency_;
  time_series_recorder series_;
  net::steady_timer pace_, end_, drain_;
  bool pace_armed_ = false, window_closed_ = false, drained_ = false;
  uint64_t in_window_ = 0, next_ = 0, unsent_ = 0, max_backlog_ = 0, unfinished_ = 0;
};

} // namespace

uint64_t load_result::requests() const {
  uint64_t n = 0;
  for (auto& k : kinds)
    n += k.counts.total();
  return n;
}

uint64_t load_result::ok() const {
  uint64_t n = 0;
  for (auto& k : kinds)
    n += k.ok;
  return n;
}

load_result run_load(const load_options& o, const source_factory& make) {
  const auto start = steady::now();
  std::vector<std::unique_ptr<load_worker>> workers;
  for (std::size_t t = 0; t < o.threads; ++t)
    workers.push_back(std::make_unique<load_worker>(o, make(t), t, start));

  const auto cpu_start = process_cpu_seconds();
  std::vector<std::thread> threads;
  for (std::size_t t = 1; t < workers.size(); ++t)
    threads.emplace_back([&w = *workers[t]] { w.run(); });
  workers.front()->run();
  for (auto& th : threads)
    th.join();

  load_result r;
  r.client_cpu_s = process_cpu_seconds() - cpu_start;
  r.seconds = std::chrono::duration<double>(o.duration).count();
  r.kinds.resize(o.kinds);
  std::vector<const time_series_recorder*> series;
  for (auto& w : workers) {
    for (std::size_t k = 0; k < o.kinds; ++k) {
      r.kinds[k].counts.merge(w->kinds()[k].counts);
      r.kinds[k].ok += w->kinds()[k].ok;
      r.kinds[k].latency.merge(w->kinds()[k].latency);
    }
    r.latency.merge(w->latency());
    series.push_back(&w->series());
    r.unsent += w->unsent();
    r.max_backlog += w->max_backlog();
    r.unfinished += w->unfinished();
  }
  r.series = time_series_recorder::merge(series, static_cast<uint64_t>(std::ceil(r.seconds)));
  return r;
}

} // namespace svc::bench
