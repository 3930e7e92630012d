#pragma once
// The remote back end (`--provider remote`): every image job is rendered by
// an AUTOMATIC1111-compatible server over HTTP, with a deadline per job,
// retries of transport failures, progress polling and interrupt on cancel.
// Svc keeps everything else (auth, credits, outputs, events).

#include <chrono>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "providers/generation_backend.hpp"
#include "providers/remote/remote_url.hpp"

namespace svc::providers {

/// How the back end reaches its server; durations as `--remote-*` configure them.
struct remote_options {
  remote_url url;                                   ///< the server's base URL
  std::chrono::milliseconds timeout{10 * 60 * 1000}; ///< per job, retries included: past it `provider_timeout`
  std::chrono::milliseconds connect_timeout{10000}; ///< one connect; also bounds each progress poll and interrupt
  int retries = 3;                                  ///< further attempts after a transport failure
  std::chrono::milliseconds backoff{1000};          ///< before the first retry, doubling for each next one
  std::chrono::milliseconds poll{500};              ///< between progress polls while a render runs
  std::vector<std::pair<std::string, std::string>> headers; ///< sent on every call (a proxy's auth); never logged
};

/// Thread-safe: each render runs on its caller's thread with an io_context
/// of its own, so `--workers` bounds the renders in flight.
///
/// Failure codes: `provider_timeout` (the deadline passed; an interrupt is
/// sent), `provider_unavailable` (connection refused or lost, DNS failure,
/// 502/503/504, after every retry), `provider_error` (any other non-2xx
/// status, not retried since a failed generation already cost GPU time; a
/// malformed answer; a video request), `cancelled` (the token fired; an
/// interrupt is sent).
class remote_backend final : public generation_backend {
public:
  /// A back end talking to `options.url`; connects only when rendering.
  explicit remote_backend(remote_options options);

  /// Renders `req` on the server (see the class comment for failures).
  render_outcome render(const render_request& req, const progress_fn& progress,
                        const cancel_token& cancel) override;

  /// `remote`.
  std::string_view name() const override { return "remote"; }

  /// Up when `/sdapi/v1/progress` answers.
  std::string probe(std::chrono::milliseconds timeout) override;

private:
  remote_options options_;
};

} // namespace svc::providers
