#pragma once
// An SMTP relay on 127.0.0.1 for svcd's mail to team owners: one that
// takes mail, or one that stalls in one of the ways relays do (never
// greets, trickles an endless greeting, or takes the message and never
// confirms it). Any number of connections, each served by the behaviour set
// when it was accepted; what it took is recorded. Like a real submission
// relay it can offer STARTTLS or speak TLS at once, and require TLS and
// AUTH (PLAIN, LOGIN) before it takes mail.

#include <chrono>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "bench/receiver/test_ca.hpp"

namespace svc::e2e {

/// How the relay treats a connection.
enum class relay_behaviour {
  takes_mail,         ///< a whole conversation: greeting, EHLO, MAIL, RCPT, DATA, 250 queued, QUIT
  never_greets,       ///< accepts, then says nothing
  endless_greeting,   ///< sends `220-` continuation lines, one every 100 ms, never the last one
  stalls_after_data,  ///< takes the message's data, then never answers it
};

/// When the relay speaks TLS.
enum class relay_tls {
  none,     ///< plain SMTP; STARTTLS is not offered
  starttls, ///< STARTTLS is offered, and required before MAIL and AUTH
  implicit, ///< TLS from the first byte (smtps)
};

/// What the relay demands before it takes mail.
struct relay_security {
  relay_tls tls = relay_tls::none;
  svc::receiver::pem_identity identity; ///< the certificate it shows (needed unless `tls` is none)
  std::string user;                     ///< non-empty: AUTH with `user` and `password` before MAIL
  std::string password;
  std::string mechanisms = "PLAIN LOGIN"; ///< what the EHLO reply offers after `AUTH`
};

class smtp_relay {
public:
  /// Listens on 127.0.0.1 on an ephemeral port, served by a thread of its own.
  explicit smtp_relay(relay_behaviour behaviour, relay_security security = {});
  /// Stops.
  ~smtp_relay();
  smtp_relay(const smtp_relay&) = delete;
  smtp_relay& operator=(const smtp_relay&) = delete;

  /// `127.0.0.1:PORT`, for `--smtp` (its URL form is up to the test).
  std::string address() const;
  /// How connections accepted from now on are treated.
  void set_behaviour(relay_behaviour behaviour);

  /// Connections accepted so far.
  std::size_t connections() const;
  /// Connections the client closed while the relay stalled.
  std::size_t closed_while_stalled() const;
  /// The data of each message received (dot-stuffing undone), confirmed or not.
  std::vector<std::string> messages() const;
  /// TLS handshakes that succeeded.
  std::size_t tls_sessions() const;
  /// AUTH exchanges that ended with the right user and password.
  std::size_t logins() const;
  /// AUTH exchanges refused for a wrong user or password.
  std::size_t refused_logins() const;
  /// AUTH commands received on a connection without TLS (a leak when credentials follow).
  std::size_t auth_in_clear() const;

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
