#pragma once
// One client connection: reads requests (header and body limits, a deadline
// for each whole request), hands them to the application, and writes the
// answers in request order. Up to `pipeline_limit` requests may wait for
// their answers; past that the session stops reading until one is written.

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>

#include "http/transport.hpp"

namespace svc::http {

class connection_tracker;


class session : public std::enable_shared_from_this<session> {
public:
  session(tcp::socket socket, const transport_limits& limits, exchange_handler& app,
          std::shared_ptr<connection_tracker> tracker);
  ~session();

  /// Starts reading on the session's strand.
  void start();

  /// Stops reading; answers what is queued with `Connection: close`, then closes.
  void drain();

  /// True if a read or write has outlived its deadline (any thread may ask).
  bool overdue(std::chrono::steady_clock::time_point now) const;

  /// Closes the connection because it was overdue.
  void expire();

private:
  struct slot {
    uint64_t seq;
    std::optional<outgoing_response> response;
    std::string wire; ///< status line and fields as written (alive during the write)
  };

  void do_read();
  void on_read(beast::error_code ec, std::size_t bytes);
  void enqueue_protocol_error(protocol_error e, const std::string& detail);
  responder make_responder(uint64_t seq);
  void deliver(uint64_t seq, outgoing_response res);
  void do_write();
  void on_write(beast::error_code ec, std::size_t bytes);
  void close_if_done();
  void close();

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  std::optional<beast::http::request_parser<beast::http::string_body>> parser_;
  std::deque<slot> queue_;
  uint64_t next_seq_ = 0;
  bool reading_ = false;
  bool writing_ = false;
  bool read_closed_ = false; ///< no more requests will be read
  bool closed_ = false;
  // Deadlines of the outstanding read and write (steady-clock ns, 0: none),
  // checked by the listener's sweep: cheaper than a timer per operation.
  std::atomic<int64_t> read_deadline_{0};
  std::atomic<int64_t> write_deadline_{0};
  const transport_limits& limits_;
  exchange_handler& app_;
  peer_info peer_;
  std::shared_ptr<connection_tracker> tracker_;
};

} // namespace svc::http
