#pragma once
// The Cog back end (an engine of kind `cog`): one Cog container (coglet
// 0.17+ or the Python server 0.16) running one model, driven as the brief's
// "what a Svc client must do" says (../shared/design/engines.md 2.7): the
// model's input map checked against its /openapi.json, a prediction under
// the job's id created with `PUT` and `Prefer: respond-async`, its state from
// webhooks to svcd's engine-callback listener, `/health-check` when they go
// quiet, and `/predictions/<id>/cancel`. A PUT never serves as a poll: once
// a run has ended the same PUT starts another.

#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "providers/engine_callbacks.hpp"
#include "providers/engines_file.hpp"
#include "providers/generation_backend.hpp"
#include "providers/remote/remote_url.hpp"

namespace svc::providers {

/// How long a Cog render may take and how it is watched.
struct cog_options {
  std::chrono::milliseconds timeout{10 * 60 * 1000}; ///< per job: past it the prediction is cancelled, `provider_timeout`
  std::chrono::milliseconds connect_timeout{10000};  ///< one connect, and each call
  std::chrono::milliseconds silence{5000};           ///< no webhook this long: /health-check is asked
  int retries = 3;                                   ///< further creates after a refused connection, 409 or 503
  std::chrono::milliseconds backoff{1000};           ///< before the first retry, doubling
};

/// Thread-safe: each render has its own connections and io_context.
///
/// Failures: `provider_error` (422 input refused; the model failed, with its
/// error; an output that is not what was asked, or too large),
/// `provider_unavailable` (unreachable or busy after retries; setup failed;
/// the prediction lost, as a restart of the container loses it),
/// `provider_timeout`, `cancelled`.
class cog_backend final : public generation_backend {
public:
  /// `engine` runs the models of `setups` (by model id); `lora_files` maps a
  /// catalogue slug to its file or URL for the model.
  cog_backend(engine_spec engine, remote_url url, std::map<std::string, model_setup> setups,
              std::map<std::string, std::string> lora_files, cog_options options, engine_callbacks callbacks);

  /// Checks every model's input map against the container's /openapi.json:
  /// empty when it fits or the container is not up yet (then the first
  /// render checks again), else why not (naming the input).
  std::string check_inputs();

  /// Renders `req` (see the class comment).
  render_outcome render(const render_request& req, const progress_fn& progress, const cancel_token& cancel) override;

  /// `cog`.
  std::string_view name() const override { return "cog"; }

  /// Up while `/health-check` says READY or BUSY (only those take work).
  std::string probe(std::chrono::milliseconds timeout) override;

private:
  friend class cog_render;
  engine_spec engine_;
  remote_url url_;
  std::map<std::string, model_setup> setups_;
  std::map<std::string, std::string> lora_files_;
  cog_options options_;
  engine_callbacks callbacks_;
  std::mutex check_mutex_;
  bool checked_ = false;      // under check_mutex_
  std::chrono::steady_clock::time_point last_check_; // under check_mutex_: see engine_recheck_interval
  std::string check_failure_; // under check_mutex_: once set, every render fails with it
};

} // namespace svc::providers
