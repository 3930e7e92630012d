#include "providers/remote/remote_backend.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include <boost/asio/steady_timer.hpp>

#include "core/duration.hpp"
#include "core/log.hpp"
#include "providers/engine_calls.hpp"
#include "providers/remote/a1111_protocol.hpp"
#include "providers/remote/http_exchange.hpp"

namespace svc::providers {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
using steady = std::chrono::steady_clock;
using endpoint_list = std::vector<net::ip::tcp::endpoint>;

// How often a running render looks at its cancel token: a cancel ends the
// render within this, and a check costs one atomic load.
constexpr std::chrono::milliseconds cancel_check_period{50};
// Progress and interrupt answers are a few hundred bytes.
constexpr std::size_t small_answer_bytes = 64 * 1024;

// Forwards the server's progress, capped below 1 (which only success
// reports) and never decreasing, also across retries.
struct progress_reporter {
  const progress_fn& fn;
  double shown = 0.0;

  void report(double p) {
    p = std::min(p, 0.99);
    if (fn && p > shown) {
      shown = p;
      fn(p);
    }
  }
};

// Each call made for the job, a poll as much as the render, is a span of its own in the request's trace.
exchange_request request_to(const remote_options& options, bhttp::verb method, std::string_view path,
                            const schema::correlation& cause, steady::time_point connect_deadline,
                            steady::time_point deadline) {
  auto& url = options.url;
  exchange_request r;
  r.method = method;
  r.target = url.target(path);
  r.host = url.host_header();
  r.authorization = url.authorization;
  r.headers = schema::outbound_headers(cause);
  r.headers.insert(r.headers.end(), options.headers.begin(), options.headers.end());
  r.connect_deadline = std::min(connect_deadline, deadline);
  r.deadline = deadline;
  r.body_limit = small_answer_bytes;
  return r;
}

// One try of a render: the render request, progress polls and the cancel
// check on one io_context on the calling thread. `run` returns the render
// request's end, or nothing when the token fired first.
class render_attempt {
public:
  render_attempt(const remote_options& options, const endpoint_list& endpoints, progress_reporter& progress,
                 const cancel_token& cancel)
      : options_(options), endpoints_(endpoints), progress_(progress), cancel_(cancel), poll_timer_(ioc_),
        cancel_timer_(ioc_) {}

  std::optional<exchange_answer> run(const render_request& req, const std::string& body, steady::time_point deadline) {
    auto r = request_to(options_, bhttp::verb::post, a1111_render_path(req), req.correlation,
                        steady::now() + options_.connect_timeout, deadline);
    r.body = body;
    r.body_limit = a1111_answer_limit(req);
    render_ = http_exchange::start(ioc_, endpoints_, std::move(r), [this](exchange_answer a) {
      answer_ = std::move(a);
      stop();
    });
    arm_poll(req.correlation, deadline);
    arm_cancel_check();
    ioc_.run();
    return answer_;
  }

private:
  void arm_poll(const schema::correlation& cause, steady::time_point deadline) {
    poll_timer_.expires_after(options_.poll);
    poll_timer_.async_wait([this, &cause, deadline](boost::system::error_code ec) {
      if (ec || stopped_)
        return;
      auto now = steady::now();
      auto r = request_to(options_, bhttp::verb::get, a1111_progress_path, cause, now + options_.connect_timeout,
                          std::min(deadline, now + options_.connect_timeout));
      poll_ = http_exchange::start(ioc_, endpoints_, std::move(r), [this, &cause, deadline](exchange_answer a) {
        poll_.reset();
        // A failed poll costs nothing but a stale figure: the render decides.
        if (a.fault == exchange_fault::none && a.status == 200)
          if (auto p = a1111_parse_progress(a.body))
            progress_.report(*p);
        arm_poll(cause, deadline);
      });
    });
  }

  void arm_cancel_check() {
    cancel_timer_.expires_after(cancel_check_period);
    cancel_timer_.async_wait([this](boost::system::error_code ec) {
      if (ec || stopped_)
        return;
      if (!cancel_.cancelled())
        return arm_cancel_check();
      render_->abort();
      stop();
    });
  }

  // Lets `ioc_.run()` return: nothing may stay pending.
  void stop() {
    stopped_ = true;
    poll_timer_.cancel();
    cancel_timer_.cancel();
    if (poll_)
      poll_->abort();
  }

  const remote_options& options_;
  const endpoint_list& endpoints_;
  progress_reporter& progress_;
  const cancel_token& cancel_;
  net::io_context ioc_;
  net::steady_timer poll_timer_;
  net::steady_timer cancel_timer_;
  std::shared_ptr<http_exchange> render_;
  std::shared_ptr<http_exchange> poll_;
  std::optional<exchange_answer> answer_;
  bool stopped_ = false;
};

// Stops whatever the server renders now. A1111 has one render at a time and
// no per-request interrupt, so this is the only way to free the GPU.
void send_interrupt(const remote_options& options, const endpoint_list& endpoints, const schema::correlation& cause) {
  net::io_context ioc;
  auto deadline = steady::now() + options.connect_timeout;
  exchange_answer got;
  http_exchange::start(ioc, endpoints,
                       request_to(options, bhttp::verb::post, a1111_interrupt_path, cause, deadline, deadline),
                       [&got](exchange_answer a) { got = std::move(a); });
  ioc.run();
  if (got.fault != exchange_fault::none || got.status != 200)
    core::log_warn("remote", "interrupt at " + options.url.text() + " failed: " +
                               (got.fault == exchange_fault::none ? "HTTP " + std::to_string(got.status) : got.detail));
}

// Transport failures the server may recover from: worth another attempt.
bool retryable(const exchange_answer& a) {
  switch (a.fault) {
  case exchange_fault::connect_failed:
  case exchange_fault::connection_lost:
    return true;
  case exchange_fault::none:
    return a.status == 502 || a.status == 503 || a.status == 504;
  default:
    return false;
  }
}

// A retryable failure in a few words.
std::string describe(const exchange_answer& a) {
  switch (a.fault) {
  case exchange_fault::none: return "HTTP " + std::to_string(a.status);
  case exchange_fault::connection_lost: return "connection lost: " + a.detail;
  default: return "cannot connect: " + a.detail;
  }
}

// Why a render that is not tried again failed. The back end's own words
// (which may quote its paths, hosts and stack) go to the log only.
std::string not_retried(const exchange_answer& a, const remote_url& url) {
  switch (a.fault) {
  case exchange_fault::none:
    core::log_warn("remote", "the back end at " + url.text() + " answered HTTP " + std::to_string(a.status) + ": "
                               + a1111_error_snippet(a.body));
    return "the back end answered HTTP " + std::to_string(a.status) + " (its answer is in the server's log)";
  case exchange_fault::too_large: return "the back end's answer is larger than the asked images can be: " + a.detail;
  default: return "the back end's answer is unreadable: " + a.detail;
  }
}

render_outcome logged(render_outcome outcome, const remote_url& url) {
  if (!outcome.ok())
    core::log_warn("remote", "render at " + url.text() + " failed (" + outcome.error().code + "): " +
                               outcome.error().message);
  return outcome;
}

} // namespace

remote_backend::remote_backend(remote_options options) : options_(std::move(options)) {}

render_outcome remote_backend::render(const render_request& req, const progress_fn& progress,
                                      const cancel_token& cancel) {
  if (req.is_video())
    return provider_error::failed("the remote back end renders images only");
  const auto deadline = steady::now() + options_.timeout;
  const auto& url = options_.url;
  const int attempts = options_.retries + 1;
  const auto body = a1111_render_body(req);
  progress_reporter reporter{progress};
  if (progress)
    progress(0.0);
  auto backoff = options_.backoff;
  for (int attempt = 1;; ++attempt) {
    if (cancel.cancelled())
      return provider_error::cancelled();
    std::string why;
    auto endpoints = resolve_endpoints(url.host, url.port, why);
    auto end = endpoints.empty()
                 ? std::optional<exchange_answer>{{exchange_fault::connect_failed, 0, {}, why}}
                 : render_attempt(options_, endpoints, reporter, cancel).run(req, body, deadline);
    if (!end) {
      send_interrupt(options_, endpoints, req.correlation);
      return provider_error::cancelled();
    }
    if (end->fault == exchange_fault::timed_out) {
      send_interrupt(options_, endpoints, req.correlation);
      return logged(provider_error::timeout("the back end did not answer within " +
                                            core::format_duration(options_.timeout)),
                    url);
    }
    if (end->fault == exchange_fault::none && end->status == 200) {
      auto outcome = a1111_parse_images(end->body, req);
      if (outcome.ok() && progress)
        progress(1.0);
      return logged(std::move(outcome), url);
    }
    // A failed generation already cost GPU time: it is not tried again.
    if (!retryable(*end))
      return logged(provider_error::failed(not_retried(*end, url)), url);
    // Messages reach API clients: they name no host of the operator's network.
    if (attempt == attempts)
      return logged(provider_error::unavailable("the back end could not be reached in " + std::to_string(attempts) +
                                                " attempts; the last: " + describe(*end)),
                    url);
    auto wait = std::min<std::chrono::milliseconds>(
      backoff, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - steady::now()));
    core::log_warn("remote", "attempt " + std::to_string(attempt) + " of " + std::to_string(attempts) + " at " +
                               url.text() + " failed (" + describe(*end) + "); retrying in " +
                               core::format_duration(std::max(wait, std::chrono::milliseconds{0})));
    if (cancel.wait_for(wait))
      return provider_error::cancelled();
    if (steady::now() >= deadline)
      return logged(provider_error::timeout("the back end could not be reached within " +
                                            core::format_duration(options_.timeout) + "; the last attempt: " +
                                            describe(*end)),
                    url);
    backoff *= 2;
  }
}

std::string remote_backend::probe(std::chrono::milliseconds timeout) {
  return probe_get(options_.url, options_.headers, "/sdapi/v1/progress", timeout);
}

} // namespace svc::providers
