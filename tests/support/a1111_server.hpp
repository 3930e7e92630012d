#pragma once
// A small AUTOMATIC1111-compatible server for the unit and e2e tests of the
// remote back end: txt2img, img2img, progress and interrupt over real HTTP on
// 127.0.0.1, answered with real PNGs. It records every request so tests can
// check what Svc sent (LoRA tokens, seed, size, steps).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <boost/json/object.hpp>

namespace svc::test {

/// How the server answers render requests (progress and interrupt always
/// answer, but in `hang`).
enum class a1111_mode {
  ok,       ///< PNGs of the asked size, one per `batch_size`, pixels depending on seed + i
  fail_500, ///< HTTP 500 with an A1111-style error body
  fail_503, ///< HTTP 503, as a proxy in front of a restarting server answers
  hang_up,  ///< closes the connection without answering
  slow,     ///< renders until interrupted (then answers like `ok`) or `slow_time` passed
  hang,     ///< answers no request at all (progress and interrupt neither) until the client closes
  not_http, ///< answers bytes that are not HTTP, then closes
  not_json, ///< answers 200 with an HTML page
  huge_png, ///< answers 200 with a PNG of the asked size padded by `a1111_huge_padding` base64 characters,
            ///< without Content-Length, as fast as the client reads
};

/// Base64 characters of padding in a `huge_png` answer (112.5 MiB of PNG).
inline constexpr std::uint64_t a1111_huge_padding = 150ull << 20;

/// One request as received.
struct a1111_request {
  std::string method;        ///< `GET`, `POST`
  std::string target;        ///< path and query
  std::string authorization; ///< the `Authorization` header, or empty
  std::string request_id;    ///< the `X-Request-Id` header, or empty
  std::string traceparent;   ///< the `traceparent` header, or empty
  std::string body;          ///< raw body
};

/// Runs on its own thread from construction to `close()` or destruction.
class a1111_server {
public:
  /// Listens on 127.0.0.1 on an ephemeral port.
  explicit a1111_server(a1111_mode mode = a1111_mode::ok);
  /// Closes.
  ~a1111_server();
  a1111_server(const a1111_server&) = delete;
  a1111_server& operator=(const a1111_server&) = delete;

  /// `http://127.0.0.1:PORT`.
  std::string url() const;
  /// The port it listens on (still reported after `close()`).
  std::uint16_t port() const;

  /// Changes how later render requests are answered.
  void set_mode(a1111_mode mode);
  /// How long a `slow` render runs unless interrupted (default 60 s).
  void set_slow_time(std::chrono::milliseconds d);
  /// Whether `ok` answers put a grid image first when the batch has several images.
  void set_grid(bool on);

  /// Every request received so far, in arrival order.
  std::vector<a1111_request> requests() const;
  /// Requests whose target starts with `path`.
  std::size_t count(std::string_view path) const;
  /// The JSON bodies of txt2img and img2img requests, in arrival order.
  std::vector<boost::json::object> renders() const;
  /// Interrupt requests received.
  std::size_t interrupts() const;
  /// The PNGs of each render answered with images, in order (a grid excluded).
  std::vector<std::vector<std::string>> images_sent() const;
  /// Bytes of `huge_png` answers the clients took before they closed (kernel buffers included).
  std::uint64_t huge_bytes_taken() const;
  /// `huge_png` answers written to their end.
  std::size_t huge_answers_finished() const;

  /// Stops listening and drops open connections: later connects are refused. Idempotent.
  void close();

private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

} // namespace svc::test
