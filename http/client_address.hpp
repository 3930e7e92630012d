#pragma once
// Who a request comes from: the TCP peer, or, when the peer is a trusted
// reverse proxy, the client its `X-Forwarded-For` (or `Forwarded`) names; and
// the key a client's connections and anonymous rate bucket count under.
// Pure, so every header shape is unit tested.

#include <string>
#include <string_view>
#include <vector>

#include "core/cidr.hpp"
#include "core/config.hpp"
#include "http/transport.hpp"

namespace svc::http {

/// Whether `a` lies in one of `ranges`.
bool in_ranges(const net::ip::address& a, const std::vector<core::cidr>& ranges);

/// The key of a client: an IPv4 address as text (also when it arrives
/// IPv4-mapped on a dual-stack socket), an IPv6 address by its /64
/// (`2001:db8:1:2::/64`), since one subscriber holds a whole /64 and could
/// rotate through its addresses.
std::string client_key(const net::ip::address& a);

/// The header the trusted proxies record their hops in. Only that one is
/// read: a proxy passes the other through as the client wrote it (nginx and
/// ALB forward a client's `Forwarded`), so reading both would let any client
/// name its own address.
enum class forwarding_header { x_forwarded_for, forwarded };

/// The header `--trusted-proxy-header` names (`x-forwarded-for` or `forwarded`).
forwarding_header forwarding_header_named(std::string_view name);

/// The client of `req`: `peer` unless it is in `trusted`; then the hops the
/// proxies recorded in `header` (every field line in order) are walked from
/// the right, and the first one not in `trusted` is the client (hops further
/// left are the client's own claims, which anyone can forge). When every hop
/// is trusted, the left-most is; a hop that is no address (`unknown`, an
/// obfuscated name, garbage) ends the walk at the trusted hop that reported it.
net::ip::address client_address(const net::ip::address& peer, const http_request& req,
                                const std::vector<core::cidr>& trusted, forwarding_header header);

/// The key of the client of `req` from `peer`, behind the proxies `cfg` trusts.
std::string client_key_behind(const core::config& cfg, const net::ip::address& peer, const http_request& req);

} // namespace svc::http
