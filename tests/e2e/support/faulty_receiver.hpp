#pragma once
// A webhook receiver that misbehaves on purpose, over real TLS with the test
// CA's certificate (so svcd trusts it like a healthy one): it never answers,
// answers 200 with a 100 MiB body, or resets the connection in the TLS
// handshake or halfway through its answer. It counts what happened on its
// side, so a test can tell how far svcd went and when it let go.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace svc::e2e {

/// How the receiver misbehaves on every connection.
enum class receiver_fault {
  silent,             ///< accepts the connection, then sends nothing (no TLS handshake) until svcd closes
  never_answers,      ///< completes TLS, reads the request, then sends nothing until svcd closes
  huge_body,          ///< answers 200 with a chunked body of `huge_body_bytes`, as fast as svcd reads it
  reset_in_handshake, ///< reads the ClientHello, then resets the TCP connection
  reset_in_answer,    ///< reads the request, sends the head of a 200 and a few body bytes, then resets
};

/// Size of the `huge_body` answer's body.
inline constexpr std::uint64_t huge_body_bytes = 100ull << 20;

class faulty_receiver {
public:
  /// Listens on 127.0.0.1 on an ephemeral port, served by a thread of its own.
  explicit faulty_receiver(receiver_fault fault);
  /// Stops.
  ~faulty_receiver();
  faulty_receiver(const faulty_receiver&) = delete;
  faulty_receiver& operator=(const faulty_receiver&) = delete;

  /// `https://127.0.0.1:PORT` + `path`.
  std::string url(std::string_view path = "/hooks") const;

  /// TCP connections accepted so far.
  std::size_t accepted() const;
  /// Request heads read so far (after a completed handshake).
  std::size_t requests() const;
  /// Connections that svcd closed (end of stream or reset seen while reading
  /// or writing) while the receiver misbehaved, each with how long that
  /// went on: since the request arrived, or for `silent` since the accept.
  std::vector<std::chrono::milliseconds> closed_by_svcd() const;
  /// Body bytes of `huge_body` answers that svcd's side accepted before it
  /// closed (kernel buffers included).
  std::uint64_t body_bytes_taken() const;
  /// Whether `huge_body` answers were written to their end.
  std::size_t bodies_finished() const;

  /// Waits until `n` connections were accepted; false after `timeout`.
  bool wait_for_accepted(std::size_t n, std::chrono::milliseconds timeout) const;
  /// Waits until `n` request heads were read.
  bool wait_for_requests(std::size_t n, std::chrono::milliseconds timeout) const;
  /// Waits until svcd closed `n` connections while the receiver misbehaved.
  bool wait_for_closes(std::size_t n, std::chrono::milliseconds timeout) const;

  /// Closes everything and joins the thread. Idempotent.
  void stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::e2e
