#pragma once
// The one interface every generation back end implements (the built-in
// procedural renderer, a remote HTTP service). Failures are values: no
// exception crosses this interface.

#include <chrono>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "providers/cancel_token.hpp"
#include "providers/render_request.hpp"

namespace svc::providers {

/// Why a render produced nothing.
struct provider_error {
  std::string code;    ///< `provider_error`, `provider_timeout`, `provider_unavailable`, `moderation` or `cancelled`
  std::string message; ///< for `failure.message` and logs; never contains secrets

  /// The back end failed (bad parameters, encoder or remote failure).
  static provider_error failed(std::string message) { return {"provider_error", std::move(message)}; }
  /// The back end did not finish within the job's deadline.
  static provider_error timeout(std::string message) { return {"provider_timeout", std::move(message)}; }
  /// The back end could not be reached, also after retries.
  static provider_error unavailable(std::string message) { return {"provider_unavailable", std::move(message)}; }
  /// The back end refused the content while generating.
  static provider_error moderation(std::string message) { return {"moderation", std::move(message)}; }
  /// The render stopped because its token was cancelled.
  static provider_error cancelled() { return {"cancelled", "generation cancelled"}; }
};

/// A render's result or its error.
class render_outcome {
public:
  /// A success.
  render_outcome(render_result r) : v_(std::move(r)) {}
  /// A failure.
  render_outcome(provider_error e) : v_(std::move(e)) {}

  /// True when a result is present.
  bool ok() const { return v_.index() == 0; }
  /// The result; only when `ok()`.
  const render_result& value() const { return std::get<0>(v_); }
  /// The result, to move the images out; only when `ok()`.
  render_result& value() { return std::get<0>(v_); }
  /// The error; only when `!ok()`.
  const provider_error& error() const { return std::get<1>(v_); }

private:
  std::variant<render_result, provider_error> v_;
};

/// Receives progress in 0..1: 0 when work starts, never decreasing, 1 only on
/// success. Called on the rendering thread, so it must be cheap (post a
/// message, store an atomic).
using progress_fn = std::function<void(double)>;

/// Worker threads per engine slot: a render starts on a slot while the one
/// before it there still fetches and stores its outputs.
inline constexpr int workers_per_engine_slot = 2;

/// An engine a back end renders on, as a scheduler places work on it.
struct engine_capacity {
  std::string name;
  int slots = 1;                   ///< renders it runs at once
  std::vector<std::string> models; ///< ids of the models it serves
  std::string kind;                ///< `comfyui`, `cog`, `a1111`, `procedural`
  std::string url;                 ///< without credentials; empty for `procedural`
};

/// A generation back end. Implementations are thread-safe: a worker pool calls
/// `render` from several threads at once.
class generation_backend {
public:
  virtual ~generation_backend() = default;

  /// Renders `req` on the calling thread (blocking). Returns `cancelled` soon
  /// after `cancel` fires, also mid-render; `progress` may be empty.
  virtual render_outcome render(const render_request& req, const progress_fn& progress,
                                const cancel_token& cancel) = 0;

  /// Short name for logs and metrics (`procedural`).
  virtual std::string_view name() const = 0;

  /// The engines a scheduler places renders on (`render_request::engine`);
  /// none: the back end renders every model itself, as many at once as the
  /// worker pool has threads.
  virtual std::vector<engine_capacity> engines() const { return {}; }

  /// Asks the engine whether it takes work, within `timeout` (blocking):
  /// empty when it does, else why not. The built-in renderer always does.
  virtual std::string probe(std::chrono::milliseconds timeout) {
    (void)timeout;
    return {};
  }
};

} // namespace svc::providers
