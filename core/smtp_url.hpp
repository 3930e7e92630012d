#pragma once
// The mail relay of `--smtp`: a URL (`smtp://[user@]host[:port]`,
// `smtps://[user@]host[:port]`) or the older `HOST:PORT`, read once into
// what the SMTP client needs. Parsed with Boost.URL.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace svc::core {

/// How the conversation with the relay is protected.
enum class smtp_security {
  none,     ///< `HOST:PORT`: plain SMTP, as a local MTA speaks it; no AUTH
  starttls, ///< `smtp://`: STARTTLS is required, the relay is refused without it
  implicit, ///< `smtps://`: TLS from the first byte
};

struct smtp_url {
  smtp_security security = smtp_security::none;
  std::string host;        ///< a DNS name or an IP address (IPv6 without brackets)
  uint16_t port = 25;      ///< given, or 25 for smtp:// and 465 for smtps://
  std::string user;        ///< the URL's user, percent-decoded; empty: no AUTH
  bool has_password = false; ///< the URL holds a password (refused at start: it belongs in a file)

  /// `smtp://host:port` or `smtps://host:port` (IPv6 in brackets), without the user.
  std::string url() const;
};

/// The relay `text` names, or nothing when it is neither a URL of scheme
/// smtp/smtps with a host (path `/` at most, no query or fragment) nor
/// `HOST:PORT`; a port is 1..65535; a DNS name holds only letters, digits,
/// `-` and `.` (no percent-encoding, no Unicode: the relay's certificate
/// names it in ASCII); a user holds no control characters.
std::optional<smtp_url> parse_smtp_url(std::string_view text);

} // namespace svc::core
