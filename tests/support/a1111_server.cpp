#include "a1111_server.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <optional>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <boost/beast/http/parser.hpp>
#include <boost/beast/http/string_body.hpp>
#include <boost/beast/http/write.hpp>
#include <boost/json.hpp>

#include "core/crypto.hpp"
#include "providers/image.hpp"
#include "providers/png_writer.hpp"
#include "tests/support/loopback_listener.hpp"

namespace svc::test {
namespace {

namespace net = boost::asio;
namespace bhttp = boost::beast::http;
namespace json = boost::json;
using tcp = net::ip::tcp;
using steady = std::chrono::steady_clock;
using error_code = boost::system::error_code;

// Uploads in img2img bodies are base64 and may be several MB.
constexpr std::size_t max_request_bytes = 64u << 20;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A picture that differs per seed: a diagonal gradient in a seed-chosen hue.
std::string make_png(int width, int height, std::uint32_t seed) {
  providers::image img(width, height);
  const float r = static_cast<float>(seed % 7) / 6.0f;
  const float g = static_cast<float>((seed / 7) % 7) / 6.0f;
  for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
      const float t = static_cast<float>(x + y) / static_cast<float>(width + height);
      img.at(x, y) = {r, g, t};
    }
  std::string out, error;
  providers::encode_png(img, {}, out, error);
  return out;
}

} // namespace

struct a1111_server::impl {
  // Shared with the test thread.
  mutable std::mutex mutex;
  a1111_mode mode = a1111_mode::ok;
  std::chrono::milliseconds slow_time{60000};
  bool grid = false;
  std::vector<a1111_request> requests;
  std::vector<std::vector<std::string>> images;
  std::uint64_t huge_taken = 0;
  std::size_t huge_finished = 0;

  // The io thread's alone.
  std::vector<std::weak_ptr<tcp::socket>> sockets;
  std::vector<std::weak_ptr<net::steady_timer>> slow_renders;
  std::optional<steady::time_point> slow_since;

  loopback_listener listener; // after everything its handlers use

  void accept() {
    auto socket = std::make_shared<tcp::socket>(listener.ioc);
    listener.acceptor.async_accept(*socket, [this, socket](error_code ec) {
      if (ec)
        return;
      sockets.push_back(socket);
      read(socket);
      accept();
    });
  }

  void read(const std::shared_ptr<tcp::socket>& socket) {
    auto buffer = std::make_shared<boost::beast::flat_buffer>();
    auto parser = std::make_shared<bhttp::request_parser<bhttp::string_body>>();
    parser->body_limit(max_request_bytes);
    bhttp::async_read(*socket, *buffer, *parser, [this, socket, buffer, parser](error_code ec, std::size_t) {
      if (ec)
        return;
      auto& req = parser->get();
      a1111_request r{std::string(req.method_string()), std::string(req.target()),
                      std::string(req[bhttp::field::authorization]), std::string(req["X-Request-Id"]),
                      std::string(req["traceparent"]), req.body()};
      a1111_mode m;
      {
        std::lock_guard lock(mutex);
        requests.push_back(r);
        m = mode;
      }
      handle(socket, r, m);
    });
  }

  void respond(const std::shared_ptr<tcp::socket>& socket, int status, std::string body) {
    auto res = std::make_shared<bhttp::response<bhttp::string_body>>(static_cast<bhttp::status>(status), 11);
    res->set(bhttp::field::content_type, "application/json");
    res->keep_alive(false);
    res->body() = std::move(body);
    res->prepare_payload();
    bhttp::async_write(*socket, *res, [socket, res](error_code, std::size_t) {
      error_code ignored;
      socket->shutdown(tcp::socket::shutdown_both, ignored);
      socket->close(ignored);
    });
  }

  void handle(const std::shared_ptr<tcp::socket>& socket, const a1111_request& r, a1111_mode m) {
    if (m == a1111_mode::hang)
      return hold(socket);
    if (r.method == "GET" && starts_with(r.target, "/sdapi/v1/progress"))
      return respond(socket, 200, progress_body());
    if (r.method == "POST" && r.target == "/sdapi/v1/interrupt") {
      for (auto& t : slow_renders)
        if (auto timer = t.lock())
          timer->cancel();
      return respond(socket, 200, "{}");
    }
    if (r.method != "POST" || (r.target != "/sdapi/v1/txt2img" && r.target != "/sdapi/v1/img2img"))
      return respond(socket, 404, R"({"detail":"Not Found"})");
    error_code ec;
    auto body = json::parse(r.body, ec);
    std::string why = ec || !body.is_object() ? "the body is not a JSON object" : invalid_render(body.as_object(), r);
    if (!why.empty())
      return respond(socket, 422, json::serialize(json::object{{"detail", why}}));
    switch (m) {
    case a1111_mode::ok:
      return respond(socket, 200, render_answer(body.as_object()));
    case a1111_mode::fail_500:
      return respond(socket, 500, R"({"error":"OutOfMemoryError","detail":"","body":"","errors":"CUDA out of memory.)"
                                  R"(\nTried to allocate 2.00 GiB"})");
    case a1111_mode::fail_503:
      return respond(socket, 503, "Service Unavailable");
    case a1111_mode::hang_up: {
      error_code ignored;
      socket->close(ignored);
      return;
    }
    case a1111_mode::slow:
      return render_slowly(socket, body.as_object());
    case a1111_mode::not_http:
      return write_then_close(socket, std::make_shared<std::string>("\x16\x03\x01garbage\xff\xfe\r\n\r\n"));
    case a1111_mode::not_json:
      return respond(socket, 200, "<html><body><h1>It works!</h1></body></html>");
    case a1111_mode::huge_png:
      return answer_huge_png(socket, body.as_object());
    case a1111_mode::hang:
      return;
    }
  }

  // Reads and drops whatever comes until the client closes: the connection
  // stays open and nothing is answered.
  void hold(const std::shared_ptr<tcp::socket>& socket) {
    auto scratch = std::make_shared<std::array<char, 4096>>();
    socket->async_read_some(net::buffer(*scratch), [this, socket, scratch](error_code ec, std::size_t) {
      if (!ec)
        hold(socket);
    });
  }

  void write_then_close(const std::shared_ptr<tcp::socket>& socket, std::shared_ptr<std::string> bytes) {
    net::async_write(*socket, net::buffer(*bytes), [socket, bytes](error_code, std::size_t) {
      error_code ignored;
      socket->shutdown(tcp::socket::shutdown_both, ignored);
      socket->close(ignored);
    });
  }

  // A real PNG's signature and header of the asked size, then base64 padding
  // (zero bytes) for as long as the client reads; the end of the stream ends
  // the answer.
  void answer_huge_png(const std::shared_ptr<tcp::socket>& socket, const json::object& b) {
    auto png = make_png(static_cast<int>(b.at("width").as_int64()), static_cast<int>(b.at("height").as_int64()), 0);
    constexpr std::size_t signature_and_header = 33; // a multiple of 3: its base64 has no padding
    auto head = std::make_shared<std::string>(
      "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"images\":[\"" +
      core::base64_encode(png.substr(0, signature_and_header)));
    net::async_write(*socket, net::buffer(*head), [this, socket, head](error_code ec, std::size_t) {
      if (!ec)
        write_padding(socket, 0);
    });
  }

  void write_padding(const std::shared_ptr<tcp::socket>& socket, std::uint64_t written) {
    static const std::string chunk(64 * 1024, 'A');
    if (written >= a1111_huge_padding) {
      std::lock_guard lock(mutex);
      ++huge_finished;
      return write_then_close(socket, std::make_shared<std::string>(R"("],"parameters":{},"info":"{}"})"));
    }
    net::async_write(*socket, net::buffer(chunk), [this, socket, written](error_code ec, std::size_t n) {
      if (ec)
        return;
      {
        std::lock_guard lock(mutex);
        huge_taken += n;
      }
      write_padding(socket, written + n);
    });
  }

  // What FastAPI's validation would refuse, plus what Svc must always send.
  static std::string invalid_render(const json::object& b, const a1111_request& r) {
    for (auto field : {"prompt", "negative_prompt"})
      if (!b.contains(field) || !b.at(field).is_string())
        return std::string(field) + " must be a string";
    for (auto field : {"seed", "width", "height", "steps", "batch_size", "n_iter"})
      if (!b.contains(field) || !b.at(field).is_int64())
        return std::string(field) + " must be an integer";
    if (b.at("width").as_int64() < 64 || b.at("height").as_int64() < 64 || b.at("batch_size").as_int64() < 1)
      return "bad size or batch";
    if (r.target == "/sdapi/v1/img2img") {
      auto* init = b.if_contains("init_images");
      if (!init || !init->is_array() || init->as_array().empty() || !init->as_array()[0].is_string() ||
          !core::base64_decode(init->as_array()[0].as_string()))
        return "init_images must hold a base64 image";
    }
    return {};
  }

  std::string render_answer(const json::object& b) {
    const int width = static_cast<int>(b.at("width").as_int64());
    const int height = static_cast<int>(b.at("height").as_int64());
    const auto batch = b.at("batch_size").as_int64();
    const auto seed = static_cast<std::uint32_t>(b.at("seed").as_int64());
    std::vector<std::string> pngs;
    for (std::int64_t i = 0; i < batch; ++i)
      pngs.push_back(make_png(width, height, seed + static_cast<std::uint32_t>(i)));
    json::array encoded;
    {
      std::lock_guard lock(mutex);
      if (grid && batch > 1)
        encoded.emplace_back(core::base64_encode(make_png(64, 64, 0)));
      images.push_back(pngs);
    }
    for (auto& p : pngs)
      encoded.emplace_back(core::base64_encode(p));
    return json::serialize(json::object{{"images", std::move(encoded)}, {"parameters", b}, {"info", "{}"}});
  }

  void render_slowly(const std::shared_ptr<tcp::socket>& socket, json::object body) {
    std::chrono::milliseconds d;
    {
      std::lock_guard lock(mutex);
      d = slow_time;
    }
    auto timer = std::make_shared<net::steady_timer>(listener.ioc, d);
    slow_renders.push_back(timer);
    slow_since = steady::now();
    // Interrupted or done, A1111 answers with what it has: here, full images.
    timer->async_wait([this, socket, timer, body = std::move(body)](error_code) {
      slow_since.reset();
      respond(socket, 200, render_answer(body));
    });
  }

  std::string progress_body() {
    double p = 0;
    if (slow_since) {
      std::lock_guard lock(mutex);
      p = std::min(0.95, std::chrono::duration<double>(steady::now() - *slow_since) /
                           std::chrono::duration<double>(slow_time));
    }
    return json::serialize(json::object{{"progress", p},
                                        {"eta_relative", 0.0},
                                        {"state", json::object{{"interrupted", false}, {"job_count", slow_since ? 1 : 0}}},
                                        {"current_image", nullptr},
                                        {"textinfo", nullptr}});
  }
};

a1111_server::a1111_server(a1111_mode mode) : impl_(std::make_shared<impl>()) {
  impl_->mode = mode;
  impl_->accept();
  impl_->listener.start();
}

a1111_server::~a1111_server() { close(); }

std::string a1111_server::url() const { return "http://127.0.0.1:" + std::to_string(impl_->listener.port); }

std::uint16_t a1111_server::port() const { return impl_->listener.port; }

void a1111_server::set_mode(a1111_mode mode) {
  std::lock_guard lock(impl_->mutex);
  impl_->mode = mode;
}

void a1111_server::set_slow_time(std::chrono::milliseconds d) {
  std::lock_guard lock(impl_->mutex);
  impl_->slow_time = d;
}

void a1111_server::set_grid(bool on) {
  std::lock_guard lock(impl_->mutex);
  impl_->grid = on;
}

std::vector<a1111_request> a1111_server::requests() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->requests;
}

std::size_t a1111_server::count(std::string_view path) const {
  std::lock_guard lock(impl_->mutex);
  return static_cast<std::size_t>(std::count_if(impl_->requests.begin(), impl_->requests.end(),
                                                [&](const a1111_request& r) { return starts_with(r.target, path); }));
}

std::vector<json::object> a1111_server::renders() const {
  std::vector<json::object> out;
  for (auto& r : requests())
    if (r.target == "/sdapi/v1/txt2img" || r.target == "/sdapi/v1/img2img") {
      error_code ec;
      auto v = json::parse(r.body, ec);
      out.push_back(!ec && v.is_object() ? v.as_object() : json::object{});
    }
  return out;
}

std::size_t a1111_server::interrupts() const { return count("/sdapi/v1/interrupt"); }

std::uint64_t a1111_server::huge_bytes_taken() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->huge_taken;
}

std::size_t a1111_server::huge_answers_finished() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->huge_finished;
}

std::vector<std::vector<std::string>> a1111_server::images_sent() const {
  std::lock_guard lock(impl_->mutex);
  return impl_->images;
}

void a1111_server::close() {
  impl_->listener.stop([i = impl_.get()] {
    error_code ignored;
    for (auto& s : i->sockets)
      if (auto socket = s.lock())
        socket->close(ignored);
    for (auto& t : i->slow_renders)
      if (auto timer = t.lock())
        timer->cancel();
  });
}

} // namespace svc::test
