#include "providers/comfyui/comfy_socket.hpp"

#include <boost/beast/core/buffers_to_string.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/websocket.hpp>

namespace svc::providers {
namespace {

namespace beast = boost::beast;
namespace websocket = beast::websocket;
using steady = std::chrono::steady_clock;

// A frame is an event of a few hundred bytes, or a preview image.
constexpr std::size_t max_frame_bytes = 16u << 20;
// Text frames kept unread; a render reads them every tick.
constexpr std::size_t max_frames_kept = 1024;

} // namespace

struct comfy_socket::impl : std::enable_shared_from_this<impl> {
  impl(boost::asio::io_context& ioc, const remote_url& url, std::vector<std::pair<std::string, std::string>> h,
       std::string id)
      : ws(ioc), host(url.host_header()), target(url.target("/ws?clientId=" + id)), headers(std::move(h)) {
    // The URL's `user:password@` goes with the upgrade as with every HTTP call (a proxy's basic auth).
    if (!url.authorization.empty())
      headers.insert(headers.begin(), {"Authorization", url.authorization});
  }

  websocket::stream<beast::tcp_stream> ws;
  beast::flat_buffer buffer;
  std::string host, target;
  std::vector<std::pair<std::string, std::string>> headers;
  std::deque<std::string> frames;
  steady::time_point heard = steady::now();
  enum class state { connecting, open, down } now = state::connecting;
  std::string why = "not connected yet";

  void down(std::string reason) {
    if (now == state::down)
      return;
    now = state::down;
    why = std::move(reason);
    beast::error_code ignored;
    beast::get_lowest_layer(ws).socket().close(ignored);
  }

  void read() {
    ws.async_read(buffer, [self = shared_from_this()](beast::error_code ec, std::size_t) {
      if (ec)
        return self->down(ec == websocket::error::closed ? "the engine closed the websocket" : ec.message());
      self->heard = steady::now();
      if (self->ws.got_text())
        self->frames.push_back(beast::buffers_to_string(self->buffer.data()));
      if (self->frames.size() > max_frames_kept) // unread for long: the newest tell the state
        self->frames.pop_front();
      self->buffer.consume(self->buffer.size());
      self->read();
    });
  }
};

comfy_socket::comfy_socket(boost::asio::io_context& ioc, const remote_url& url,
                           std::vector<std::pair<std::string, std::string>> headers, std::string client_id)
    : impl_(std::make_shared<impl>(ioc, url, std::move(headers), std::move(client_id))) {}

comfy_socket::~comfy_socket() { close(); }

void comfy_socket::open(const std::vector<boost::asio::ip::tcp::endpoint>& endpoints, steady::time_point deadline) {
  auto self = impl_;
  beast::get_lowest_layer(self->ws).expires_at(deadline);
  beast::get_lowest_layer(self->ws).async_connect(endpoints, [self](beast::error_code ec, const auto&) {
    if (ec)
      return self->down("cannot connect: " + ec.message());
    self->ws.read_message_max(max_frame_bytes);
    // The decorator lives in the stream: it copies the headers, since holding
    // `self` would keep the stream alive through itself.
    self->ws.set_option(websocket::stream_base::decorator([headers = self->headers](websocket::request_type& req) {
      req.set(beast::http::field::user_agent, "svc");
      for (auto& [name, value] : headers)
        req.set(name, value);
    }));
    self->ws.async_handshake(self->host, self->target, [self](beast::error_code ec) {
      if (ec)
        return self->down("websocket handshake failed: " + ec.message());
      // From here the render watches for silence itself.
      beast::get_lowest_layer(self->ws).expires_never();
      self->now = impl::state::open;
      self->heard = steady::now();
      self->read();
    });
  });
}

bool comfy_socket::is_open() const { return impl_->now == impl::state::open; }
bool comfy_socket::is_down() const { return impl_->now == impl::state::down; }
const std::string& comfy_socket::why() const { return impl_->why; }
std::deque<std::string>& comfy_socket::frames() { return impl_->frames; }
steady::time_point comfy_socket::last_heard() const { return impl_->heard; }
void comfy_socket::close() { impl_->down("closed"); }

} // namespace svc::providers
