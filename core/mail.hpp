#pragma once
// An e-mail to a team owner and what sends it: an SMTP relay, or without one
// an RFC 5322 file in the data directory's outbox.

#include <string>

#include "core/clock.hpp"
#include "core/described.hpp"

namespace svc::core {

struct mail_message {
  std::string from;    ///< `Svc <noreply@...>`
  std::string to;      ///< one address
  std::string subject; ///< one line
  std::string body;    ///< plain text, LF line ends
};
SVC_DESCRIBE(mail_message, (from, to, subject, body))

/// The message as RFC 5322 text (CRLF line ends, Date and Message-ID headers).
std::string format_rfc5322(const mail_message& m, time_point date, const std::string& message_id);

class mail_sender {
public:
  virtual ~mail_sender() = default;
  /// Sends (blocking); an empty string on success, else the reason.
  virtual std::string send(const mail_message& m) = 0;
};

} // namespace svc::core
