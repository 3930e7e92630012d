#pragma once
// One render's HTTP calls to one engine, made on the render's own
// io_context and thread (blocking the worker, as every back end does): the
// engine's URL, headers and request correlation on every call, and pauses
// that keep the io_context running so a websocket beside the calls still
// gathers frames.

#include <chrono>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/http/verb.hpp>

#include "providers/remote/http_exchange.hpp"
#include "providers/remote/remote_url.hpp"
#include "schema/correlation.hpp"

namespace svc::providers {

/// How long after an engine could not be checked at its start (it did not
/// answer) the next render asks it again; renders meanwhile go ahead.
constexpr std::chrono::seconds engine_recheck_interval{10};

/// An engine's answers are small JSON unless they carry outputs.
constexpr std::size_t engine_small_answer = 1u << 20;

using header_list = std::vector<std::pair<std::string, std::string>>;

/// A health probe: one GET of `target` on the engine, within `timeout` in
/// all. Empty when it answered 200 (its body in `body`), else why not.
std::string probe_get(const remote_url& url, const header_list& headers, const std::string& target,
                      std::chrono::milliseconds timeout, std::string* body = nullptr);

class engine_calls {
public:
  using clock = std::chrono::steady_clock;

  /// Calls `url` with `headers` (the engine's own: a proxy's auth) and
  /// `correlation`'s headers; each connect takes at most `connect_timeout`,
  /// each call that plus `call_timeout`, and nothing runs past `deadline`.
  engine_calls(const remote_url& url, header_list headers, const schema::correlation& correlation,
               std::chrono::milliseconds connect_timeout, std::chrono::milliseconds call_timeout,
               clock::time_point deadline);

  /// Resolves the engine's host; false with the resolver's reason in `why`.
  bool resolve(std::string& why);
  /// One request to `target` (relative to the URL's path), run to its end.
  exchange_answer call(boost::beast::http::verb method, const std::string& target, std::string body = {},
                       std::size_t limit = engine_small_answer, std::string content_type = "application/json",
                       const header_list& extra = {});
  /// One GET of an absolute http URL the engine named (an output), bounded by `limit`.
  exchange_answer fetch(const remote_url& where, const std::string& target, std::size_t limit);
  /// Runs the io_context for `d` (handlers of others on it run meanwhile).
  void pause(std::chrono::milliseconds d) {
    pause_until(d, [] { return false; });
  }
  /// Runs it for `d`, or until `woken()` after a handler ran (a websocket
  /// frame arrived), whichever is first.
  template <class Woken>
  void pause_until(std::chrono::milliseconds d, Woken woken) {
    bool fired = false;
    pause_timer_.expires_after(d);
    pause_timer_.async_wait([&fired](boost::system::error_code) { fired = true; });
    run_until([&] { return fired || woken(); });
    if (!fired) { // the timer's handler refers to `fired`: let it run before returning
      pause_timer_.cancel();
      run_until([&] { return fired; });
    }
  }
  /// Runs handlers until `done()`: for a wait whose own handler is pending
  /// with a deadline (a websocket's handshake).
  template <class Done>
  void run_until(Done done) {
    while (!done())
      ioc_.run_one();
  }

  boost::asio::io_context& ioc() { return ioc_; }
  const std::vector<boost::asio::ip::tcp::endpoint>& endpoints() const { return endpoints_; }
  clock::time_point deadline() const { return deadline_; }
  /// Moves the deadline (a cancel's own calls outlive the job's deadline).
  void set_deadline(clock::time_point d) { deadline_ = d; }

private:
  exchange_answer run(exchange_request r, const std::vector<boost::asio::ip::tcp::endpoint>& to);

  const remote_url& url_;
  header_list headers_;
  std::chrono::milliseconds connect_timeout_, call_timeout_;
  clock::time_point deadline_;
  boost::asio::io_context ioc_;
  // Keeps run_one() waiting rather than stopping the io_context: without it
  // the io_context was seen stopped, an exchange still pending, right after
  // an engine dropped a websocket on it, and a stopped io_context returns at
  // once from every later run_one().
  boost::asio::executor_work_guard<boost::asio::io_context::executor_type> busy_;
  boost::asio::steady_timer pause_timer_;
  std::vector<boost::asio::ip::tcp::endpoint> endpoints_;
};

} // namespace svc::providers
