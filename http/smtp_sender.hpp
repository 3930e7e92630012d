#pragma once
// A blocking SMTP client for e-mail to team owners: plain TCP to a relay
// (no TLS, no AUTH: a local MTA or a relay that trusts our address), one
// connection per message, the whole conversation under one deadline.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "core/mail.hpp"

namespace svc::http {

/// The bare address of `Name <addr>`, `<addr>` or `addr` (spaces trimmed);
/// empty when there is none or it holds spaces, control characters or `<>`
/// (it goes into an SMTP command line as it is).
std::string mail_address(std::string_view field);

class smtp_sender final : public core::mail_sender {
public:
  /// Talks to `host_port` (`HOST:PORT`, IPv6 as `[::1]:25`); `timeout`
  /// bounds one whole send, resolution included; `clock` gives the Date header.
  explicit smtp_sender(std::string host_port, std::chrono::milliseconds timeout = std::chrono::seconds{10},
                       std::shared_ptr<const core::clock> clock = core::make_system_clock());

  /// Connects, reads 220, EHLO (HELO if refused), MAIL FROM, RCPT TO, DATA,
  /// the dot-stuffed RFC 5322 text, QUIT. An empty string once the relay
  /// accepted the message (a failed QUIT is ignored); else `smtp <step>: `
  /// and the relay's reply or the I/O error (`timed out after Nms`).
  /// Blocks; thread-safe (each call has its own connection).
  std::string send(const core::mail_message& m) override;

private:
  std::string host_port_;
  std::chrono::milliseconds timeout_;
  std::shared_ptr<const core::clock> clock_;
};

} // namespace svc::http
