#pragma once
// One way to parse an absolute URL for every parser of ours (the SMTP relay,
// the remote back end, webhook receivers): Boost.URL's, less a leniency.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <boost/url/authority_view.hpp>
#include <boost/url/url_view.hpp>

namespace svc::core {

/// `text` as an RFC 3986 URI (`scheme:[//authority]path[?query][#fragment]`),
/// viewing `text` (which must outlive it); nothing when it is none. Boost.URL
/// 1.81 also takes a path that does not start with `/` right after an
/// authority (`http://gpu:78a0` as host `gpu`, port `78`, path `a0`;
/// `http://a:b@c@gpu` as host `c`), which RFC 3986 forbids: refused here.
std::optional<boost::urls::url_view> parse_uri(std::string_view text);

/// A URL's port (`url_view::port()`, the digits after `:`) as a number
/// 1..65535 written in at most five digits; nothing otherwise (Boost.URL
/// takes any run of digits, or none: `http://gpu:`).
std::optional<uint16_t> parse_port(std::string_view digits);

/// The host of `a` as text to connect to: an IPv4 or IPv6 address as
/// Boost.URL prints it (IPv6 without brackets), or a name as written, still
/// percent-encoded, so that an escape is never taken for a letter of a DNS
/// name (callers check a name's letters). Nothing for an IPvFuture host.
std::optional<std::string> host_text(const boost::urls::authority_view& a);

} // namespace svc::core
