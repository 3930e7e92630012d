#pragma once
// The ComfyUI back end (an engine of kind `comfyui`): each render runs the
// model's API-format workflow on one ComfyUI server, following the brief's
// "what a client must do" (../shared/design/engines.md 1.13): websocket first,
// a prompt with our own UUID, progress from its events, the history as the
// fallback when the socket drops or goes quiet, outputs through /view, and
// delete-interrupt-confirm on cancel.

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <string>

#include "providers/engines_file.hpp"
#include "providers/generation_backend.hpp"
#include "providers/remote/remote_url.hpp"

namespace svc::providers {

/// How long a ComfyUI render may take and how it is watched.
struct comfyui_options {
  std::chrono::milliseconds timeout{10 * 60 * 1000}; ///< per job: past it the prompt is cancelled, `provider_timeout`
  std::chrono::milliseconds connect_timeout{10000};  ///< one connect, and each call but the render
  std::chrono::milliseconds silence{5000};           ///< a socket quiet this long (or down): the history is asked
  int retries = 3;                                   ///< further submits after a connect failure or 502/503/504
  std::chrono::milliseconds backoff{1000};           ///< before the first retry, doubling
};

/// Thread-safe: each render has its own connections and io_context.
///
/// Failures: `provider_error` (the prompt refused, with the node and its
/// message; an `execution_error`, with its exception type; an output that is
/// not what was asked), `provider_unavailable` (unreachable after retries;
/// the server lost the prompt, as a restart does), `provider_timeout`,
/// `cancelled`.
class comfyui_backend final : public generation_backend {
public:
  /// `engine` runs the models of `setups` (by model id); `lora_files` maps a
  /// catalogue slug to its file on the engine.
  comfyui_backend(engine_spec engine, remote_url url, std::map<std::string, model_setup> setups,
                  std::map<std::string, std::string> lora_files, comfyui_options options);

  /// Checks every workflow against the server's `/object_info`: empty when
  /// they fit or the server cannot be reached (then the first render checks
  /// again), else why not (naming workflow, node and input).
  std::string check_workflows();

  /// Renders `req` (see the class comment).
  render_outcome render(const render_request& req, const progress_fn& progress, const cancel_token& cancel) override;

  /// `comfyui`.
  std::string_view name() const override { return "comfyui"; }

  /// Up when `/system_stats` answers (the brief's liveness probe).
  std::string probe(std::chrono::milliseconds timeout) override;

private:
  friend class comfy_render;
  engine_spec engine_;
  remote_url url_;
  std::map<std::string, model_setup> setups_;
  std::map<std::string, std::string> lora_files_;
  comfyui_options options_;
  std::atomic<bool> checked_{false};
  std::mutex check_mutex_;
  std::chrono::steady_clock::time_point last_check_; // under check_mutex_: an unreachable server is asked again only after engine_recheck_interval
  std::string check_failure_; // under check_mutex_: once set, every render fails with it
};

} // namespace svc::providers
