#pragma once
// A ComfyUI stand-in for the ComfyUI back end's tests, faithful to the
// brief's section 4.1 (../shared/design/engines.md): real HTTP and a real
// websocket on 127.0.0.1, every route also under /api, the 403 Host/Origin
// rule, one prompt at a time from a queue, ComfyUI's 400 shapes, its event
// order (events only to the prompt's client socket, dropped when it is not
// connected), history written before the final `executing`, real PNGs and
// MP4s through /view, /upload/image with renames, and switches for the faults
// a client must survive.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/json/object.hpp>

#include "comfyui_graph.hpp"

namespace svc::test {

/// Faults the next prompts meet.
struct comfyui_faults {
  bool drop_socket = false;   ///< close every websocket when a prompt starts
  bool silent_socket = false; ///< keep websockets open but send them nothing
  bool out_of_memory = false; ///< fail each prompt at its first step with an OOM `execution_error`
  bool hang = false;          ///< never finish a prompt (steps stop before the last)
  /// Answer `POST /prompt` with 200 and an output node's `node_errors`, and
  /// queue the prompt anyway: the outputs that validated run (brief 1.3).
  bool partial_node_errors = false;
  /// Each prompt also saves a `PreviewImage` (`type: temp`, 64x64), listed before its outputs.
  bool previews = false;
};

/// One request as received (for checks of what the client sent).
struct comfyui_request {
  std::string method;
  std::string path;  ///< without `/api` and the query
  std::string query;
  std::string body;
  std::string authorization;
  std::chrono::steady_clock::time_point at; ///< when it arrived
};

/// When a finished prompt ran: from its POST /prompt to its end.
struct comfyui_span {
  std::chrono::steady_clock::time_point accepted, ended;
};

/// Runs on its own thread from construction to destruction.
class comfyui_server {
public:
  /// Listens on 127.0.0.1 on an ephemeral port; each sampler step takes `step_time`.
  explicit comfyui_server(std::chrono::milliseconds step_time = std::chrono::milliseconds{20});
  ~comfyui_server();
  comfyui_server(const comfyui_server&) = delete;
  comfyui_server& operator=(const comfyui_server&) = delete;

  /// `http://127.0.0.1:PORT`.
  std::string url() const;

  /// Sets the faults for what happens from now on.
  void set_faults(comfyui_faults f);
  /// Forgets its queue, history and sockets, as a restarted server does.
  void restart();
  /// Dies (as `restart`, and every request after is met by a closed
  /// connection), or comes back (down false) with nothing of before.
  void set_down(bool down);

  /// Every request so far.
  std::vector<comfyui_request> requests() const;
  /// The `prompt` of each accepted `POST /prompt`, in order.
  std::vector<boost::json::object> prompts() const;
  /// Requests to `path` (`/interrupt`, `/queue`, `/history`...) with `method`.
  std::size_t count(const std::string& method, const std::string& path) const;
  /// The prompt ids still in the history.
  std::size_t history_size() const;
  /// The files uploaded through /upload/image (`subfolder/name`).
  std::vector<std::string> uploads() const;
  /// The id of the prompt running now, or empty.
  std::string running() const;
  /// Prompts waiting in the queue.
  std::size_t pending() const;
  /// Seconds each finished prompt took, from its POST /prompt to its end
  /// (what svcd's time over a job is measured against).
  std::vector<double> render_seconds() const;
  /// The same prompts' spans, in the order they finished.
  std::vector<comfyui_span> render_spans() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::test
