#pragma once
// An SMTP relay on 127.0.0.1 for svcd's mail to team owners: one that
// takes mail, or one that stalls in one of the ways relays do (never
// greets, trickles an endless greeting, or takes the message and never
// confirms it). Any number of connections, each served by the behaviour set
// when it was accepted; what it took is recorded.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace svc::e2e {

/// How the relay treats a connection.
enum class relay_behaviour {
  takes_mail,         ///< a whole conversation: greeting, EHLO, MAIL, RCPT, DATA, 250 queued, QUIT
  never_greets,       ///< accepts, then says nothing
  endless_greeting,   ///< sends `220-` continuation lines, one every 100 ms, never the last one
  stalls_after_data,  ///< takes the message's data, then never answers it
};

class smtp_relay {
public:
  /// Listens on 127.0.0.1 on an ephemeral port, served by a thread of its own.
  explicit smtp_relay(relay_behaviour behaviour);
  /// Stops.
  ~smtp_relay();
  smtp_relay(const smtp_relay&) = delete;
  smtp_relay& operator=(const smtp_relay&) = delete;

  /// `127.0.0.1:PORT`, for `--smtp`.
  std::string address() const;
  /// How connections accepted from now on are treated.
  void set_behaviour(relay_behaviour behaviour);

  /// Connections accepted so far.
  std::size_t connections() const;
  /// Connections the client closed while the relay stalled.
  std::size_t closed_while_stalled() const;
  /// The data of each message received (dot-stuffing undone), confirmed or not.
  std::vector<std::string> messages() const;

  /// Waits until `n` connections were accepted; false after `timeout`.
  bool wait_for_connections(std::size_t n, std::chrono::milliseconds timeout) const;
  /// Waits until `n` messages were received.
  bool wait_for_messages(std::size_t n, std::chrono::milliseconds timeout) const;

  /// Closes everything and joins the thread. Idempotent.
  void stop();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace svc::e2e
