#pragma once
// The SMTP client for e-mail to team owners, libcurl's: plain SMTP to a
// local relay, STARTTLS (required) or implicit TLS with AUTH to a real one;
// one connection per message, the whole conversation under one deadline.

#include <chrono>
#include <memory>
#include <string>
#include <string_view>

#include "core/clock.hpp"
#include "core/mail.hpp"
#include "core/smtp_url.hpp"

namespace svc::clients {

/// The bare address of `Name <addr>`, `<addr>` or `addr` (spaces trimmed);
/// empty when there is none or it holds spaces, control characters or `<>`
/// (it goes into an SMTP command line as it is).
std::string mail_address(std::string_view field);

struct smtp_options {
  core::smtp_url relay;         ///< where, and with which protection
  std::string password;         ///< AUTH password of `relay.user`; never logged
  std::string ca_file;          ///< CA bundle trusted for the relay instead of the system's; empty: system CAs
  std::chrono::milliseconds timeout{std::chrono::seconds{10}}; ///< one whole send, resolution to QUIT
};

class smtp_sender final : public core::mail_sender {
public:
  /// A sender to `options.relay`; `clock` gives the Date header.
  explicit smtp_sender(smtp_options options, std::shared_ptr<const core::clock> clock = core::make_system_clock());

  /// Sends the RFC 5322 text of `m` in one conversation: TLS as
  /// `options.relay` asks (a relay that does not offer STARTTLS is refused
  /// before MAIL), AUTH when there is a user, never before TLS. An empty
  /// string once the relay accepted the message; else `smtp: ` and libcurl's
  /// reason with the relay's last reply, or `smtp: timed out after Nms`.
  /// Blocks; thread-safe (each call has its own connection).
  std::string send(const core::mail_message& m) override;

private:
  smtp_options options_;
  std::shared_ptr<const core::clock> clock_;
};

} // namespace svc::clients
