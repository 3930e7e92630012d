#pragma once
// The websocket a ComfyUI render listens on (`/ws?clientId=...`), opened
// before the prompt is submitted, since the server drops events for a client
// that is not connected. It only gathers text frames (binary previews are
// skipped); the render reads them between its other steps, on the same
// io_context and thread.

#include <chrono>
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "providers/remote/remote_url.hpp"

namespace svc::providers {

/// One connection; not thread-safe (its io_context's thread only).
class comfy_socket {
public:
  /// Where it connects and as whom.
  comfy_socket(boost::asio::io_context& ioc, const remote_url& url,
               std::vector<std::pair<std::string, std::string>> headers, std::string client_id);
  ~comfy_socket();

  /// Starts connecting to `endpoints`; the handshake must end by `deadline`.
  void open(const std::vector<boost::asio::ip::tcp::endpoint>& endpoints,
            std::chrono::steady_clock::time_point deadline);
  /// The handshake ended and no read failed since.
  bool is_open() const;
  /// Connecting or the connection failed (or closed); `why` says how.
  bool is_down() const;
  /// Why it is down.
  const std::string& why() const;
  /// Text frames received and not yet taken, oldest first.
  std::deque<std::string>& frames();
  /// When the last frame (text or binary) arrived, or the handshake ended.
  std::chrono::steady_clock::time_point last_heard() const;
  /// Closes at once (no close handshake); pending handlers end.
  void close();

private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

} // namespace svc::providers
