#include "core/smtp_url.hpp"

#include <algorithm>

#include <boost/url/authority_view.hpp>
#include <boost/url/grammar/ci_string.hpp>
#include <boost/url/parse.hpp>

#include "core/uri.hpp"

namespace svc::core {
namespace {

namespace urls = boost::urls;

bool is_dns_name(std::string_view name) {
  return !name.empty() && name.size() <= 253 && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
  });
}

// Host and port of an authority (a URL's or a bare `HOST:PORT`); false when
// either is unusable. Without a port `out.port` keeps its default.
bool take_host_port(const urls::authority_view& a, smtp_url& out) {
  auto host = host_text(a);
  if (!host || (a.host_type() == urls::host_type::name && !is_dns_name(*host)))
    return false;
  out.host = std::move(*host);
  if (!a.has_port())
    return true;
  auto port = parse_port(a.port());
  if (!port)
    return false;
  out.port = *port;
  return true;
}

std::optional<smtp_url> parse_url(std::string_view text) {
  auto parsed = parse_uri(text);
  if (!parsed || !parsed->has_authority())
    return std::nullopt;
  auto& u = *parsed;
  smtp_url out;
  auto scheme = u.scheme();
  if (urls::grammar::ci_is_equal(scheme, "smtp")) {
    out.security = smtp_security::starttls;
    out.port = 25;
  } else if (urls::grammar::ci_is_equal(scheme, "smtps")) {
    out.security = smtp_security::implicit;
    out.port = 465;
  } else {
    return std::nullopt;
  }
  if (u.has_query() || u.has_fragment() || (u.encoded_path() != "" && u.encoded_path() != "/"))
    return std::nullopt;
  if (!take_host_port(u.authority(), out))
    return std::nullopt;
  if (u.has_userinfo()) {
    out.user = u.user();
    out.has_password = u.has_password();
    if (out.user.empty()
        || std::any_of(out.user.begin(), out.user.end(), [](char c) {
             return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
           }))
      return std::nullopt;
  }
  return out;
}

} // namespace

std::string smtp_url::url() const {
  auto scheme = security == smtp_security::implicit ? "smtps://" : "smtp://";
  auto bracketed = host.find(':') != std::string::npos ? "[" + host + "]" : host;
  return scheme + bracketed + ":" + std::to_string(port);
}

std::optional<smtp_url> parse_smtp_url(std::string_view text) {
  if (text.find("://") != std::string_view::npos)
    return parse_url(text);
  // `HOST:PORT`, the form of old: plain SMTP, the port required.
  auto parsed = urls::parse_authority(text);
  if (!parsed || parsed->has_userinfo() || !parsed->has_port())
    return std::nullopt;
  smtp_url out;
  if (!take_host_port(*parsed, out))
    return std::nullopt;
  return out;
}

} // namespace svc::core
